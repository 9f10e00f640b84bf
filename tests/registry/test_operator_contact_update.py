import pytest
from django.core.exceptions import ValidationError

from fogkeeper.registry.models import Operator
from fogkeeper.registry.services import operator_contact_update
from tests.audit.people import alice, events
from tests.records import make_agency, make_establishment

pytestmark = pytest.mark.django_db


@pytest.fixture
def operator():
    return make_establishment(make_agency()).current_tenure().operator


def update(operator, **kw):
    fields = {"phone": "949-555-0101", "email": "pier@example.org", "mailing_address": "PO Box 9"}
    return operator_contact_update(operator=operator, **{**fields, **kw}, actor=alice())


def test_it_updates_the_contact_details_with_an_audit_row(operator):
    assert update(operator) is True
    operator.refresh_from_db()
    assert (operator.phone, operator.email) == ("949-555-0101", "pier@example.org")
    (event,) = events("operator.contact")
    assert event.before["email"] == "" and event.after["email"] == "pier@example.org"
    assert event.actor == alice() and event.agency == operator.agency


def test_it_writes_nothing_when_nothing_changed(operator):
    update(operator)
    assert update(operator) is False
    assert len(events("operator.contact")) == 1


def test_it_refuses_a_malformed_email_and_changes_nothing(operator):
    with pytest.raises(ValidationError) as e:
        update(operator, email="pier at example", phone="949-555-0199")
    assert list(e.value.message_dict) == ["email"]
    assert Operator.objects.get(pk=operator.pk).phone == ""
    assert events("operator.contact") == []


def test_it_refuses_what_is_not_a_phone_number(operator):
    with pytest.raises(ValidationError) as e:
        update(operator, phone="call me")
    assert e.value.message_dict == {"phone": ["'call me' is not a phone number."]}


def test_it_takes_a_phone_number_with_an_extension(operator):
    update(operator, phone="+1 (949) 555-0101 ext. 12")
    operator.refresh_from_db()
    assert operator.phone == "+1 (949) 555-0101 ext. 12"

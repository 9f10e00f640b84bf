from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.registry.models import Hauler
from fogkeeper.registry.services import hauler_register, operator_register
from tests.audit.people import alice, events
from tests.records import make_agency

pytestmark = pytest.mark.django_db


def test_it_registers_a_hauler_with_an_audit_row():
    agency = make_agency()
    hauler = hauler_register(
        agency=agency, code="H-1", name="Orange Pumping", licence_expires_on=date(2026, 1, 1)
    )
    (event,) = events("hauler.register")
    assert (event.object_id, event.agency) == (str(hauler.pk), agency)


def test_it_refuses_a_code_the_agency_already_uses():
    agency = make_agency()
    hauler_register(agency=agency, code="H-1", name="Orange Pumping")
    with pytest.raises(ValidationError) as e:
        hauler_register(agency=agency, code="H-1", name="Other Pumping")
    assert list(e.value.message_dict) == ["code"]
    assert Hauler.objects.count() == 1


def test_it_lets_another_agency_use_the_same_code():
    hauler_register(agency=make_agency(), code="H-1", name="Orange Pumping")
    hauler_register(agency=make_agency("town-10-02"), code="H-1", name="Desert Pumping")
    assert Hauler.objects.count() == 2


def test_it_registers_an_operator():
    operator = operator_register(agency=make_agency(), name="Harbor Group", actor=alice())
    (event,) = events("operator.register")
    assert event.object_id == str(operator.pk)
    assert event.actor.username == "alice"

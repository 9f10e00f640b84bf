"""An operator keeps its contact details up to date."""

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.registry.models import Operator

pytestmark = pytest.mark.django_db

URL = "/portal/operator/contact/"
DETAILS = {"phone": "949-555-0101", "email": "eats@example.org", "mailing_address": "9 Wharf Rd"}


def test_it_saves_the_contact_details_with_an_audit_row(as_olive, olive):
    response = as_olive.post(URL, DETAILS, follow=True)
    operator = Operator.objects.get(name="Harbor Eats Inc")
    assert (operator.phone, operator.email) == ("949-555-0101", "eats@example.org")
    event = AuditEvent.objects.get(action="operator.contact")
    assert event.actor == olive and event.after["mailing_address"] == "9 Wharf Rd"
    assert "Contact details saved." in response.content.decode()


def test_it_shows_the_details_kept(as_olive):
    as_olive.post(URL, DETAILS)
    assert 'value="eats@example.org"' in as_olive.get(URL).content.decode()


def test_it_refuses_a_malformed_email_and_keeps_the_old_details(as_olive):
    response = as_olive.post(URL, {**DETAILS, "email": "eats at example"})
    assert response.status_code == 400
    assert "Enter a valid email address." in response.content.decode()
    assert Operator.objects.get(name="Harbor Eats Inc").phone == ""


def test_it_shows_the_services_message_for_a_phone_that_is_not_one(as_olive):
    response = as_olive.post(URL, {**DETAILS, "phone": "ask at the bar"})
    assert response.status_code == 400
    assert "&#x27;ask at the bar&#x27; is not a phone number." in response.content.decode()
    assert not AuditEvent.objects.filter(action="operator.contact").exists()


def test_it_changes_only_the_operators_own_record(as_olive):
    as_olive.post(URL, DETAILS)
    assert Operator.objects.exclude(email="").count() == 1

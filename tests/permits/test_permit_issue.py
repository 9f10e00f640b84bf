from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.permits.models import Permit
from fogkeeper.permits.services import permit_application_submit, permit_issue
from tests.audit.people import alice, events
from tests.records import make_agency, make_establishment, make_permit

pytestmark = pytest.mark.django_db


def issue(fse, **kw):
    fields = {"number": "SC-1", "issued_on": date(2025, 1, 1), "expires_on": date(2029, 12, 31)}
    return permit_issue(establishment=fse, **{**fields, **kw})


def test_it_issues_the_permit_to_the_current_operator():
    fse = make_establishment(make_agency(), operator="Pier Foods LLC")
    permit = issue(fse, actor=alice())
    assert (permit.holder, permit.status, permit.agency) == ("Pier Foods LLC", "active", fse.agency)
    (event,) = events("permit.issue")
    assert event.after["number"] == "SC-1" and event.actor.username == "alice"


def test_it_issues_to_a_named_holder():
    permit = issue(make_establishment(make_agency()), holder="Pier Holdings Inc")
    assert permit.holder == "Pier Holdings Inc"


def test_it_refuses_an_expiry_before_the_issue():
    fse = make_establishment(make_agency())
    with pytest.raises(ValidationError) as e:
        issue(fse, expires_on=date(2024, 12, 31))
    (message,) = e.value.message_dict["expires_on"]
    assert (
        message
        == "The Discharge Permit would expire (2024-12-31) before it is issued (2025-01-01)."
    )
    assert not Permit.objects.exists() and events() == []


def test_it_refuses_a_second_active_permit():
    fse = make_establishment(make_agency())
    make_permit(fse, number="SC-0")
    with pytest.raises(ValidationError) as e:
        issue(fse)
    assert "renew it instead" in e.value.message_dict["establishment"][0]


def test_it_refuses_a_number_the_agency_already_used():
    agency = make_agency()
    make_permit(make_establishment(agency, code="FSE-1"), number="SC-1")
    with pytest.raises(ValidationError) as e:
        issue(make_establishment(agency, code="FSE-2"))
    assert list(e.value.message_dict) == ["number"]


def test_it_refuses_a_zero_frequency():
    with pytest.raises(ValidationError) as e:
        issue(make_establishment(make_agency()), service_frequency_days=0)
    assert "service_frequency_days" in e.value.message_dict


def test_it_approves_the_application_it_answers():
    fse = make_establishment(make_agency())
    application = permit_application_submit(
        establishment=fse,
        submitted_on=date(2024, 12, 1),
        applicant_name="Pier Foods LLC",
        applicant_address="101 Avenida Del Mar",
        emergency_contact_name="Rosa Diaz",
        emergency_contact_phone="949-555-0101",
    )
    issue(fse, application=application)
    application.refresh_from_db()
    assert (application.approved, application.decided_on) == (True, date(2025, 1, 1))


def test_it_approves_an_application_lacking_required_items_only_on_an_override():
    fse = make_establishment(make_agency())
    application = permit_application_submit(
        establishment=fse,
        submitted_on=date(2024, 12, 1),
        applicant_name="Pier Foods LLC",
        applicant_address="101 Avenida Del Mar",
        emergency_contact_name="Rosa Diaz",
    )
    with pytest.raises(ValidationError) as e:
        issue(fse, application=application)
    assert "emergency contact's phone" in e.value.message_dict["application"][0]
    application.refresh_from_db()
    assert application.decided_on is None and not Permit.objects.exists()
    issue(fse, application=application, missing_override="Phone given at the counter")
    application.refresh_from_db()
    assert application.approved and application.missing_override == "Phone given at the counter"

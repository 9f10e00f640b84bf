from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.permits.models import PermitApplication
from fogkeeper.permits.services import permit_application_decide, permit_application_submit
from tests.audit.people import events
from tests.records import make_agency, make_establishment, make_permit

pytestmark = pytest.mark.django_db


def submit(fse, **kw):
    fields = {
        "submitted_on": date(2024, 10, 1),
        "applicant_name": "Pier Foods LLC",
        "applicant_address": "101 Avenida Del Mar",
    }
    return permit_application_submit(establishment=fse, **{**fields, **kw})


def test_it_records_the_application_with_an_audit_row():
    application = submit(make_establishment(make_agency()), meals_per_day=300)
    (event,) = events("application.submit")
    assert event.object_id == str(application.pk) and event.after["meals_per_day"] == 300


def test_it_marks_the_permit_renewal_as_applied_for():
    permit = make_permit(make_establishment(make_agency()))
    submit(permit.establishment, renewal_of=permit)
    permit.refresh_from_db()
    assert permit.renewal_applied_on == date(2024, 10, 1)
    assert events("permit.renewal_apply")[0].before["renewal_applied_on"] is None


def test_it_refuses_the_renewal_of_another_establishments_permit():
    agency = make_agency()
    permit = make_permit(make_establishment(agency, code="FSE-1"))
    with pytest.raises(ValidationError) as e:
        submit(make_establishment(agency, code="FSE-2"), renewal_of=permit)
    assert "renewal_of" in e.value.message_dict
    assert not PermitApplication.objects.exists()


def test_it_refuses_a_blank_applicant():
    with pytest.raises(ValidationError) as e:
        submit(make_establishment(make_agency()), applicant_name="")
    assert list(e.value.message_dict) == ["applicant_name"]


def test_it_decides_an_application():
    application = submit(make_establishment(make_agency()))
    permit_application_decide(application=application, decided_on=date(2024, 11, 1), approved=False)
    assert events("application.refuse")[0].after["approved"] is False


def test_it_refuses_a_decision_before_the_submission():
    application = submit(make_establishment(make_agency()))
    with pytest.raises(ValidationError) as e:
        permit_application_decide(
            application=application, decided_on=date(2024, 9, 30), approved=True
        )
    assert "decided_on" in e.value.message_dict
    application.refresh_from_db()
    assert application.decided_on is None

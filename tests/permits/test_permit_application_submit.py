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


def test_it_refuses_an_incomplete_san_clemente_application_naming_the_emergency_contact():
    fse = make_establishment(make_agency("san-clemente"))
    with pytest.raises(ValidationError) as e:
        submit(fse, emergency_contact_name="Rosa Diaz", require_complete=True)
    assert e.value.message_dict == {"emergency_contact_phone": ["Required (13.30.080(H)(1))."]}
    assert not PermitApplication.objects.exists()


def test_it_accepts_a_complete_san_clemente_application():
    fse = make_establishment(make_agency("san-clemente"))
    application = submit(
        fse,
        emergency_contact_name="Rosa Diaz",
        emergency_contact_phone="949-555-0101",
        require_complete=True,
    )
    assert application.emergency_contact_phone == "949-555-0101"


def test_it_asks_the_town_for_every_detail_of_10_02_050_a():
    fse = make_establishment(make_agency("town-10-02"))
    with pytest.raises(ValidationError) as e:
        submit(fse, business_name="Chaparral BBQ", meals_per_day=200, require_complete=True)
    errors = e.value.message_dict
    assert "meals_per_day" not in errors and "business_name" not in errors
    assert errors["kitchen_size_sq_ft"] == [
        "Required (10.02.050(A)), unless the Building and Safety permit or documentation is "
        "given (10.02.050(B))."
    ]


def test_it_takes_the_building_permit_in_lieu_of_the_towns_details():
    fse = make_establishment(make_agency("town-10-02"))
    application = submit(
        fse,
        business_name="Chaparral BBQ",
        building_permit_reference="B&S 2024-0117",
        require_complete=True,
    )
    assert application.building_permit_reference == "B&S 2024-0117"


def test_it_still_needs_the_towns_business_name_with_a_building_permit():
    fse = make_establishment(make_agency("town-10-02"))
    with pytest.raises(ValidationError) as e:
        submit(fse, building_permit_reference="B&S 2024-0117", require_complete=True)
    assert e.value.message_dict == {"business_name": ["Required (10.02.040(A), (B))."]}

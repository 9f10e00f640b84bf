from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.training.models import Employee
from fogkeeper.training.services import employee_hire, employee_leave
from tests.audit.people import events
from tests.records import make_agency, make_employee, make_establishment

pytestmark = pytest.mark.django_db


def test_it_hires_an_employee_with_an_audit_row():
    fse = make_establishment(make_agency())
    employee = employee_hire(establishment=fse, code="E-1", name="Ana", hired_on=date(2025, 1, 6))
    (event,) = events("employee.hire")
    assert (event.object_id, event.agency) == (str(employee.pk), fse.agency)


def test_it_refuses_a_code_the_establishment_already_uses():
    fse = make_establishment(make_agency())
    make_employee(fse, code="E-1")
    with pytest.raises(ValidationError) as e:
        employee_hire(establishment=fse, code="E-1", name="Ana", hired_on=date(2025, 1, 6))
    assert list(e.value.message_dict) == ["code"]
    assert Employee.objects.count() == 1


def test_it_records_the_first_day_no_longer_employed():
    employee = make_employee(make_establishment(make_agency()), hired_on="2024-01-01")
    employee_leave(employee=employee, left_on=date(2025, 1, 31))
    (event,) = events("employee.leave")
    assert (event.before["left_on"], event.after["left_on"]) == (None, "2025-01-31")


def test_it_refuses_a_leaving_before_the_hiring():
    employee = make_employee(make_establishment(make_agency()), hired_on="2024-01-01")
    with pytest.raises(ValidationError) as e:
        employee_leave(employee=employee, left_on=date(2023, 12, 31))
    assert "left_on" in e.value.message_dict
    employee.refresh_from_db()
    assert employee.left_on is None


def test_it_refuses_to_record_a_second_leaving():
    employee = make_employee(make_establishment(make_agency()), left_on="2024-06-01")
    with pytest.raises(ValidationError) as e:
        employee_leave(employee=employee, left_on=date(2025, 1, 31))
    assert "left on 2024-06-01" in e.value.message_dict["left_on"][0]

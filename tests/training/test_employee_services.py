"""Employees: hired not in the future, their duties changed (audited), leaving not in the
future nor before the hiring."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.training.models import Employee
from fogkeeper.training.services import employee_hire, employee_leave, employee_update
from tests.records import make_agency, make_employee, make_establishment

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 1)


@pytest.fixture
def fse():
    return make_establishment(make_agency())


def test_it_refuses_a_hire_in_the_future_writing_nothing(fse):
    with pytest.raises(ValidationError) as e:
        employee_hire(
            establishment=fse, code="E-1", name="Ana", hired_on=date(2026, 12, 2), today=TODAY
        )
    assert "in the future" in e.value.message_dict["hired_on"][0]
    assert not Employee.objects.exists() and not AuditEvent.objects.exists()


def test_it_changes_kitchen_duties_keeping_what_they_were(fse):
    ana = make_employee(fse, "E-1", name="Ana")
    employee_update(employee=ana, name="Ana Ruiz", kitchen_duties=False, contractor=True)
    event = AuditEvent.objects.get(action="employee.update")
    assert event.before["kitchen_duties"] is True and event.after["kitchen_duties"] is False
    assert Employee.objects.get().name == "Ana Ruiz"


def test_a_refused_change_leaves_the_employee_as_they_were(fse):
    ana = make_employee(fse, "E-1", name="Ana")
    with pytest.raises(ValidationError) as e:
        employee_update(employee=ana, name=" ", kitchen_duties=False, contractor=False)
    assert "name" in e.value.message_dict
    assert Employee.objects.get().kitchen_duties is True and not AuditEvent.objects.exists()


def test_it_refuses_leaving_in_the_future(fse):
    ana = make_employee(fse, "E-1", hired_on="2025-01-01")
    with pytest.raises(ValidationError) as e:
        employee_leave(employee=ana, left_on=date(2027, 1, 1), today=TODAY)
    assert "in the future" in e.value.message_dict["left_on"][0]
    assert Employee.objects.get().left_on is None and not AuditEvent.objects.exists()


def test_it_records_leaving_with_an_audit_row(fse):
    ana = make_employee(fse, "E-1", hired_on="2025-01-01")
    employee_leave(employee=ana, left_on=date(2026, 11, 1), today=TODAY)
    assert Employee.objects.get().left_on == date(2026, 11, 1)
    assert AuditEvent.objects.get(action="employee.leave").before["left_on"] is None

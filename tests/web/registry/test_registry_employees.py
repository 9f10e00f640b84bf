"""The employee pages: the roster (current and former), hiring, changing kitchen duties,
recording leaving; by whoever keeps employees (manager, inspector), not the clerk."""

from datetime import date

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.training.models import Employee
from tests.compliance.records import make_pier_taqueria
from tests.records import make_employee, make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

ROSTER = "/establishments/FSE-0042/employees/"


@pytest.fixture
def agencies():
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    return sc, town


@pytest.fixture
def inspector(client, agencies):
    user = make_user("ines", agencies[0], role="inspector")
    client.force_login(user)
    return user


def rows():
    return Employee.objects.count(), AuditEvent.objects.count()


def test_the_roster_lists_current_and_former_employees(client, inspector):
    fse = Employee.objects.filter(establishment__code="FSE-0042").first().establishment
    make_employee(fse, "E-90", name="Gone Worker", hired_on="2024-01-01", left_on="2025-01-01")
    html = client.get(f"{ROSTER}?as_of=2026-12-01").content.decode()
    former = html.split('id="former"')[1]
    assert "Gone Worker" in former and "2025-01-01" in former


def test_it_hires_an_employee_with_an_audit_row(client, inspector):
    data = {"code": "E-50", "name": "Rosa Diaz", "hired_on": "2026-11-02", "kitchen_duties": "on"}
    response = client.post(f"{ROSTER}new/", data, follow=True)
    assert "Rosa Diaz" in response.content.decode().split('id="current"')[1]
    assert AuditEvent.objects.filter(action="employee.hire", actor=inspector).exists()


def test_a_hire_in_the_future_or_with_a_used_number_is_refused_keeping_what_was_typed(
    client, inspector
):
    used = Employee.objects.filter(establishment__code="FSE-0042").first().code
    before = rows()
    response = client.post(
        f"{ROSTER}new/", {"code": used, "name": "Rosa", "hired_on": "2099-01-01"}
    )
    html = response.content.decode()
    assert response.status_code == 400 and "in the future" in html and "already exists" in html
    assert 'value="Rosa"' in html and rows() == before


def test_it_changes_kitchen_duties(client, inspector):
    employee = Employee.objects.filter(establishment__code="FSE-0042", left_on=None).first()
    url = f"{ROSTER}{employee.pk}/edit/"
    assert client.post(url, {"name": employee.name}).status_code == 302
    assert Employee.objects.get(pk=employee.pk).kitchen_duties is False
    assert AuditEvent.objects.filter(action="employee.update").exists()


def test_it_records_leaving_and_refuses_a_date_before_the_hiring(client, inspector):
    employee = Employee.objects.filter(establishment__code="FSE-0042", left_on=None).first()
    url = f"{ROSTER}{employee.pk}/leave/"
    refused = client.post(url, {"left_on": "1999-01-01"})
    assert refused.status_code == 400 and "before the hiring" in refused.content.decode()
    assert client.post(url, {"left_on": "2026-11-30"}).status_code == 302
    assert Employee.objects.get(pk=employee.pk).left_on == date(2026, 11, 30)


def test_the_clerk_reads_the_roster_but_may_not_hire(client, agencies):
    client.force_login(make_user("cleo", agencies[0], role="clerk"))
    assert client.get(ROSTER).status_code == 200
    before = rows()
    data = {"code": "E-50", "name": "Rosa", "hired_on": "2026-11-02"}
    assert client.post(f"{ROSTER}new/", data).status_code == 403 and rows() == before


def test_another_establishments_employee_answers_404(client, inspector, agencies):
    other = make_employee(make_establishment(agencies[0], code="FSE-2"), "E-1")
    assert client.post(f"{ROSTER}{other.pk}/leave/", {"left_on": "2026-01-01"}).status_code == 404

"""The staff page of required reports: the manager requires one of the Town's kinds, every
staff role reads the due dates and what is overdue, the inspector may not require one, the
page is not there under a pack that declares no kinds, nor for another agency's
establishment; the establishment page shows the due dates and the overdue finding."""

from __future__ import annotations

from datetime import date

import pytest
import time_machine

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.submittals.models import ReportRequirement
from fogkeeper.submittals.services import report_require
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

PAGE = "/establishments/T-1/reports/"
NOW = "2025-03-15 12:00 -07:00"


@pytest.fixture
def agencies():
    with time_machine.travel(NOW, tick=False):
        sc, town = two_agencies()
        make_establishment(sc, code="FSE-1")
        make_establishment(town, code="T-1", name="Desert Diner", opened_on="2020-01-01")
        yield sc, town


def login(client, agency, role: str):
    user = make_user(role[:3] + agency.code[:3], agency, role=role)
    client.force_login(user)
    return user


def require_data(**changes) -> dict:
    return {"kind": "bmp_status", "first_due_on": "2025-03-31", "every_months": "", **changes}


def test_the_manager_requires_a_report_and_sees_it_due(client, agencies):
    manager = login(client, agencies[1], "manager")
    response = client.post(PAGE, require_data(note="Grease log and dry-wipe practice"), follow=True)
    html = response.content.decode()
    assert "Periodic report on the implementation of BMPs required, first due 2025-03-31" in html
    table = html.split('id="required-reports"')[1]
    assert "2025-03-31" in table and "10.02.070(D)" in table and "Due" in table
    assert AuditEvent.objects.filter(action="report.require", actor=manager).exists()


def test_a_refused_requirement_says_why_and_keeps_nothing(client, agencies):
    login(client, agencies[1], "manager")
    response = client.post(PAGE, require_data(first_due_on="2025-03-01"))
    assert response.status_code == 400
    assert "is before the day it is required" in response.content.decode()
    assert not ReportRequirement.objects.exists()


def test_an_unknown_kind_is_refused_by_the_form(client, agencies):
    login(client, agencies[1], "manager")
    response = client.post(PAGE, require_data(kind="weekly_poem"))
    assert response.status_code == 400
    assert not ReportRequirement.objects.exists()


def test_the_inspector_reads_the_page_but_may_not_require(client, agencies):
    login(client, agencies[1], "inspector")
    html = client.get(PAGE).content.decode()
    assert "Required reports" in html and "Require the report" not in html
    assert client.post(PAGE, require_data()).status_code == 403
    assert not ReportRequirement.objects.exists()


def test_the_page_is_not_there_under_a_pack_with_no_kinds(client, agencies):
    login(client, agencies[0], "manager")
    assert client.get("/establishments/FSE-1/reports/").status_code == 404
    assert (
        'id="required-reports-heading"' not in client.get("/establishments/FSE-1/").content.decode()
    )


def test_another_agencys_establishment_is_not_there(client, agencies):
    login(client, agencies[0], "manager")
    assert client.get(PAGE).status_code == 404
    assert client.post(PAGE, require_data()).status_code == 404


def test_the_establishment_page_shows_the_overdue_report_and_its_finding(client, agencies):
    fse = agencies[1].establishments.get(code="T-1")
    report_require(
        establishment=fse, kind="self_monitoring", first_due_on=date(2025, 3, 31),
        required_on=date(2025, 3, 1),
    )  # fmt: skip
    sweep_establishment(fse, as_of=date(2025, 4, 1))
    login(client, agencies[1], "clerk")
    html = client.get("/establishments/T-1/?as_of=2025-04-01").content.decode()
    findings = html.split('id="findings"')[1].split("</table>")[0]
    assert "Required report not submitted" in findings and "10.02.140(C)" in findings
    assert "the report due 2025-03-31" in findings
    reports = html.split('id="required-reports"')[1].split("</ul>")[0]
    assert "Overdue" in reports


def test_the_due_dates_are_on_the_staff_calendar(client, agencies):
    fse = agencies[1].establishments.get(code="T-1")
    report_require(
        establishment=fse, kind="bmp_status", first_due_on=date(2025, 3, 31),
        required_on=date(2025, 3, 1),
    )  # fmt: skip
    login(client, agencies[1], "clerk")
    html = client.get("/calendar/?as_of=2025-03-20&kind=report").content.decode()
    day = html.split('id="day-2025-03-31"')[1].split("</section>")[0]
    assert "Periodic report on the implementation of BMPs" in day and "10.02.070(D)" in day
    assert "/establishments/T-1/reports/" in day


# the Town's monitoring at the permittee's cost (10.02.140(C))


@pytest.fixture
def overdue_self_monitoring(agencies):
    fse = agencies[1].establishments.get(code="T-1")
    with time_machine.travel("2025-04-10 12:00 -07:00", tick=False):
        requirement = report_require(
            establishment=fse, kind="self_monitoring", first_due_on=date(2025, 3, 31),
            required_on=date(2025, 3, 1),
        )  # fmt: skip
        yield requirement


MONITORING = "/establishments/T-1/reports/{}/2025-03-31/monitoring/"


def test_the_manager_records_the_towns_monitoring_and_bills_it(client, overdue_self_monitoring):
    login(client, overdue_self_monitoring.establishment.agency, "manager")
    url = MONITORING.format(overdue_self_monitoring.pk)
    assert url in client.get(PAGE).content.decode()
    data = {"performed_on": "2025-04-08", "cost": "412.50", "note": "Grab sample, lab 3 days"}
    html = client.post(url, data, follow=True).content.decode()
    assert "Monitoring of 2025-04-08 billed on invoice INV-" in html
    assert "monitored 2025-04-08, billed on INV-" in html
    assert AuditEvent.objects.filter(action="report.monitoring_bill").exists()


def test_a_refused_monitoring_says_why_and_bills_nothing(client, overdue_self_monitoring):
    from fogkeeper.billing.models import Invoice

    login(client, overdue_self_monitoring.establishment.agency, "manager")
    url = MONITORING.format(overdue_self_monitoring.pk)
    response = client.post(url, {"performed_on": "2025-03-20", "cost": "412.50"})
    assert response.status_code == 400
    assert "is before the day after it was due" in response.content.decode()
    assert not Invoice.objects.exists()


def test_only_the_manager_bills_monitoring_and_only_of_a_kind_that_allows_it(
    client, agencies, overdue_self_monitoring
):
    login(client, agencies[1], "inspector")
    assert client.get(MONITORING.format(overdue_self_monitoring.pk)).status_code == 403
    fse = overdue_self_monitoring.establishment
    bmp = report_require(
        establishment=fse, kind="bmp_status", first_due_on=date(2025, 3, 31),
        required_on=date(2025, 3, 1),
    )  # fmt: skip
    login(client, agencies[1], "manager")
    assert client.get(MONITORING.format(bmp.pk)).status_code == 404
    bad_day = f"/establishments/T-1/reports/{overdue_self_monitoring.pk}/2025-02-30/monitoring/"
    assert client.get(bad_day).status_code == 404
    login(client, agencies[0], "manager")
    assert client.get(MONITORING.format(overdue_self_monitoring.pk)).status_code == 404


def test_staff_read_a_submitted_report_and_no_one_else_does(client, agencies):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from fogkeeper.submittals.services import report_submit

    fse = agencies[1].establishments.get(code="T-1")
    requirement = report_require(
        establishment=fse, kind="bmp_status", first_due_on=date(2025, 3, 31),
        required_on=date(2025, 3, 1),
    )  # fmt: skip
    pdf = SimpleUploadedFile("bmp.pdf", b"%PDF-1.4\n%%EOF\n")
    done = report_submit(
        requirement=requirement, due_on=date(2025, 3, 31), submitted_on=date(2025, 3, 14),
        file=pdf, note="Dry-wipe in place", today=date(2025, 3, 14),
    )  # fmt: skip
    login(client, agencies[1], "auditor")
    html = client.get(PAGE).content.decode()
    url = f"/establishments/T-1/reports/files/{done.pk}/"
    assert url in html and "Dry-wipe in place" in html
    response = client.get(url)
    assert response.status_code == 200
    assert b"".join(response.streaming_content).startswith(b"%PDF-")
    assert client.get(f"/establishments/T-1/reports/files/{done.pk + 1}/").status_code == 404
    login(client, agencies[0], "manager")
    assert client.get(url).status_code == 404

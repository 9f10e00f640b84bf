"""An operator submits a report the agency required, from the portal: the Town's operator of
T-1 sees what is due and overdue with the section asking it, submits the file with the day,
and the overdue finding closes; a file that is no document, a day in the future or no report
chosen is refused with nothing kept; San Clemente's operator has no such page (its ordinance
declares no kinds of report), nor has another operator's establishment."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.registry.models import Operator
from fogkeeper.submittals.models import ReportSubmission
from fogkeeper.submittals.services import report_require

from .conftest import PIER, member

pytestmark = pytest.mark.django_db

URL = "/portal/operator/T-1/reports/"
DUE = date(2025, 6, 20)


@pytest.fixture
def as_tom(client, world):
    operator = Operator.objects.get(agency=world.town, name="Mesa Foods")
    client.force_login(member("tom", world.town, "operator", operator=operator))
    return client


@pytest.fixture
def required(world, today):
    """The FOG Manager required a BMP report of T-1 due 2025-06-20; none came in."""
    requirement = report_require(
        establishment=world.town_fse,
        kind="bmp_status",
        first_due_on=DUE,
        required_on=date(2025, 6, 1),
    )
    sweep_establishment(world.town_fse, as_of=today)
    return requirement


def pdf() -> SimpleUploadedFile:
    return SimpleUploadedFile("bmp.pdf", b"%PDF-1.4\n%%EOF\n", content_type="application/pdf")


def overdue():
    return Finding.objects.filter(rule="report.overdue", open=True)


def form(required, **changes) -> dict:
    data = {"report": f"{required.pk}:{DUE.isoformat()}", "submitted_on": "2025-06-30"}
    return {**data, "file": pdf(), **changes}


def test_it_shows_what_is_due_with_its_section(as_tom, required):
    html = as_tom.get(URL).content.decode()
    table = html.split('id="reports-due"')[1]
    assert "Periodic report on the implementation of BMPs" in table
    assert "10.02.070(D)" in table and "2025-06-20" in table and "Overdue" in table
    page = as_tom.get("/portal/operator/T-1/").content.decode()
    assert URL in page


def test_the_operator_submits_it_and_the_finding_closes(as_tom, required):
    assert overdue().count() == 1
    response = as_tom.post(URL, form(required), follow=True)
    assert "submitted" in response.content.decode()
    (kept,) = ReportSubmission.objects.all()
    assert (kept.due_on, kept.submitted_on) == (DUE, date(2025, 6, 30))
    assert kept.file.name.endswith(".pdf")
    sweep_establishment(required.establishment, as_of=date(2025, 6, 30))
    assert not overdue().exists()
    assert "No report is due" in as_tom.get(URL).content.decode()


@pytest.mark.parametrize(
    "changes",
    [
        {"file": SimpleUploadedFile("bmp.pdf", b"hello")},
        {"submitted_on": "2025-07-01"},
        {"report": "999:2025-06-20"},
    ],
)
def test_a_bad_submission_is_refused_and_keeps_nothing(as_tom, required, changes):
    response = as_tom.post(URL, form(required, **changes))
    assert response.status_code == 400
    assert "Nothing was submitted" in response.content.decode()
    assert not ReportSubmission.objects.exists()


def test_a_pack_with_no_kinds_has_no_such_page(as_olive):
    assert as_olive.get(f"{PIER}reports/").status_code == 404
    assert f"{PIER}reports/" not in as_olive.get(PIER).content.decode()


def test_another_operators_establishment_is_not_there(as_olive, required):
    assert as_olive.get(URL).status_code == 404
    assert as_olive.post(URL, form(required)).status_code == 404


def test_the_submission_reaches_the_staff_inbox(client, as_tom, required, world):
    as_tom.post(URL, form(required))
    client.force_login(member("mona", world.town, "manager"))
    html = client.get("/inbox/?kind=report").content.decode()
    assert (
        "Periodic report on the implementation of BMPs due 2025-06-20, submitted 2025-06-30 (late)"
        in html
    )
    assert "/establishments/T-1/reports/" in html

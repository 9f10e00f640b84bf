"""The annual report page (/reports/annual/): read by every staff role, as a page with its charts,
a PDF and an Excel workbook; a year outside the program refused with a form error.

The program is built once for the module, on the day the tests travel to (a transaction rolled
back when it ends); each test runs in a savepoint of it, so what a test writes is undone after
it, and is given the program's records read again."""

from __future__ import annotations

import re
from io import BytesIO

import pytest
import time_machine
from openpyxl import load_workbook
from pypdf import PdfReader

from fogkeeper.incidents.models import Incident
from fogkeeper.web.models import Membership
from tests import databases
from tests.records import d, make_agency, make_establishment
from tests.reporting.test_annual import build_program, read_again
from tests.web.people import make_user

pytestmark = pytest.mark.django_db

URL = "/reports/annual/"
TODAY = "2026-06-30 12:00 -07:00"


@pytest.fixture(autouse=True)
def today():
    with time_machine.travel(TODAY, tick=False):
        yield


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    with databases.rolled_back(django_db_blocker, as_committed=True):
        with time_machine.travel(TODAY, tick=False):
            p = build_program()
            Incident.objects.create(
                agency=p.agency,
                code="S-X",
                date=d("2025-10-01"),
                kind="spill",
                category=3,
                cause='=HYPERLINK("http://evil")',
            )
        databases.check_constraints()
        yield p


@pytest.fixture
def program(built, db):
    return read_again(built)


def signed_in(client, program, role: str):
    client.force_login(make_user(role, program.agency, role=role))
    return client


@pytest.mark.parametrize("role", ["manager", "inspector", "clerk", "auditor"])
def test_it_shows_every_staff_role_the_figures_of_the_year(client, program, role):
    response = signed_in(client, program, role).get(URL, {"year": "2025"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="value-fses_in_year">5<' in html
    assert 'id="value-penalties_assessed">$1,250.50<' in html
    assert "How it was computed:" in html


def test_it_draws_its_charts_as_inline_svg_with_a_text_alternative_and_no_style(client, program):
    html = signed_in(client, program, "auditor").get(URL, {"year": "2025"}).content.decode()
    assert html.count('<svg class="bar-chart"') == 3
    assert '<desc id="chart-spills_by_category-desc">Category 1: 1; Category 2: 1;' in html
    assert 'id="table-spills_by_category"' in html
    assert " style=" not in html and "<script>" not in html


def test_it_shows_the_current_year_when_none_is_asked_for(client, program):
    html = signed_in(client, program, "auditor").get(URL).content.decode()
    assert "Annual report of the FOG program, 2026" in html
    assert "the year is not over" in html


def test_it_links_to_the_pdf_and_the_workbook_of_the_year(client, program):
    html = signed_in(client, program, "auditor").get(URL, {"year": "2025"}).content.decode()
    assert 'href="?year=2025&amp;format=pdf"' in html
    assert 'href="?year=2025&amp;format=xlsx"' in html


@pytest.mark.parametrize(
    "year, why",
    [
        ("2008", "began in 2009"),
        ("2027", "has not begun"),
        ("99999", "has not begun"),
        ("twenty", "is not a year"),
    ],
)
def test_it_refuses_a_year_outside_the_program_with_a_form_error(client, program, year, why):
    response = signed_in(client, program, "auditor").get(URL, {"year": year})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_year_error"' in html and why in html
    assert 'value="' + year + '"' in html  # the value is kept
    assert "How it was computed" not in html


def test_a_bad_year_is_refused_for_the_downloads_too(client, program):
    response = signed_in(client, program, "auditor").get(URL, {"year": "1", "format": "pdf"})
    assert response.status_code == 400


def test_it_refuses_a_format_it_does_not_make(client, program):
    response = signed_in(client, program, "auditor").get(URL, {"year": "2025", "format": "doc"})
    assert response.status_code == 400
    assert b"format=pdf or format=xlsx" in response.content


def test_the_pdf_carries_the_figures_on_the_agencys_letterhead(client, program):
    program.agency.letterhead = "910 Calle Negocio\nSan Clemente, CA 92673"
    program.agency.save()
    response = signed_in(client, program, "auditor").get(URL, {"year": "2025", "format": "pdf"})
    assert response["Content-Type"] == "application/pdf"
    assert 'filename="SC-annual-report-2025.pdf"' in response["Content-Disposition"]
    text = "".join(p.extract_text() for p in PdfReader(BytesIO(response.content)).pages)
    text = re.sub(r"\s+", " ", text)
    assert "City of San Clemente" in text and "910 Calle Negocio" in text
    assert "Food service establishments in the program during 2025 5" in text
    assert "Penalties collected in 2025 $450.00" in text
    assert "Segments on a cleaning schedule cleaned on schedule in 2025 2 of 6" in text
    assert "How it was computed" in text


def test_the_workbook_has_the_figures_and_a_sheet_per_table(client, program):
    response = signed_in(client, program, "auditor").get(URL, {"year": "2025", "format": "xlsx"})
    assert 'filename="SC-annual-report-2025.xlsx"' in response["Content-Disposition"]
    book = load_workbook(BytesIO(b"".join(response.streaming_content)))
    figures = {row[0]: row[1:] for row in book["Figures"].iter_rows(values_only=True) if row}
    assert figures["Figure"] == ("Value", "How computed")
    assert figures["Food service establishments in the program during 2025"][0] == 5
    assert float(figures["Penalties assessed in 2025"][0]) == 1250.50
    assert "Spills in 2025 by category" in book.sheetnames
    causes = [row for row in book["Spills in 2025 by cause"].iter_rows(values_only=True)]
    assert ('\'=HYPERLINK("http://evil")', 1) in causes  # neutralised, not a formula


def test_it_shows_another_agency_only_its_own_program(client, program):
    town = make_agency("town-10-02", code="T", name="The Town")
    make_establishment(town, code="T-1", opened_on="2024-01-01")
    client.force_login(make_user("tess", town, role="auditor"))
    html = client.get(URL, {"year": "2025"}).content.decode()
    assert 'id="value-fses_in_year">1<' in html
    assert "Pier Taqueria" not in html and "City of San Clemente" not in html


def test_it_is_no_page_for_an_outside_role(client, program):
    user = make_user("olga")
    operator = program.fses["A"].current_tenure().operator
    Membership.objects.create(user=user, agency=program.agency, role="operator", operator=operator)
    client.force_login(user)
    response = client.get(URL, {"year": "2025"})
    assert response.status_code == 404


def test_it_only_reads(client, program):
    response = signed_in(client, program, "manager").post(URL + "?year=2025")
    assert response.status_code == 405

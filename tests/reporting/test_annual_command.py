"""`manage.py annual_report`: the annual report as text, a PDF or a workbook; a clear error for
an agency or a year it cannot report on."""

from __future__ import annotations

from io import StringIO

import pytest
import time_machine
from django.core.management import CommandError, call_command
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.reporting.test_annual import build_program

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def program():
    with time_machine.travel("2026-06-30 12:00 -07:00", tick=False):
        yield build_program()


def run(*args) -> str:
    out = StringIO()
    call_command("annual_report", *args, stdout=out)
    return out.getvalue()


def test_it_prints_the_figures_with_how_each_was_computed():
    text = run("--agency", "SC", "--year", "2025")
    assert "City of San Clemente: FOG program annual report 2025" in text
    assert "Food service establishments in the program during 2025: 5" in text
    assert "Penalties assessed in 2025: $1,250.50" in text
    assert "Category 1 | 1" in text
    assert text.count("  How: ") == 16  # with the requests of San Clemente's requests.yaml


def test_it_takes_the_agency_code_in_any_case():
    assert "annual report 2025" in run("--agency", "sc", "--year", "2025")


def test_it_writes_the_pdf_to_its_default_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "Wrote SC-annual-report-2025.pdf" in run(
        "--agency", "SC", "--year", "2025", "--format", "pdf"
    )
    reader = PdfReader(tmp_path / "SC-annual-report-2025.pdf")
    text = "".join(page.extract_text() for page in reader.pages)
    assert "Pump-outs recorded in 2025" in text


def test_it_writes_the_workbook_where_it_is_told(tmp_path):
    path = tmp_path / "report.xlsx"
    run("--agency", "SC", "--year", "2025", "--format", "xlsx", "--output", str(path))
    assert load_workbook(path).sheetnames[0] == "Figures"


def test_it_refuses_an_agency_it_does_not_know():
    with pytest.raises(CommandError, match=r"--agency: no agency 'XX' \(known: SC\)"):
        run("--agency", "XX", "--year", "2025")


@pytest.mark.parametrize(
    "year, why", [("2008", "began in 2009"), ("2031", "has not begun"), ("last", "is not a year")]
)
def test_it_refuses_a_year_it_cannot_report_on(year, why):
    with pytest.raises(CommandError, match=f"--year: .*{why}"):
        run("--agency", "SC", "--year", year)


def test_it_says_when_it_cannot_write_the_output(tmp_path):
    with pytest.raises(CommandError, match="--output: cannot write"):
        run(
            "--agency",
            "SC",
            "--year",
            "2025",
            "--format",
            "pdf",
            "--output",
            str(tmp_path / "missing" / "x.pdf"),
        )

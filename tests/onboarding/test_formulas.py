"""One rule for a cell that starts like a formula, both ways (issue 37, item 7): the program
export writes it neutralised as the staff exports do (formats.neutralise), the importer
refuses a live one in any text column, naming its row and column, and reads a neutralised
one back as it was, so that the agency's own export imports into another agency unchanged.
A negative number in a column of numbers is a number."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import date

import pytest
from openpyxl import Workbook

from fogkeeper.formats import neutralise
from fogkeeper.onboarding.catalog import KINDS
from fogkeeper.onboarding.export import records, write_rows, zip_chunks
from fogkeeper.onboarding.importer import onboard
from fogkeeper.registry.models import FoodServiceEstablishment
from tests.records import make_agency

pytestmark = pytest.mark.django_db

TODAY = date(2026, 6, 30)
HEADER = "code,name,address,opened_on,operator_name,latitude,longitude\n"
NAMES = ["+Plus Grill", "-Minus Café", "@Home", "=1+1 Diner", "\uff1dWide", "'+Quoted", "Plain"]


def _onboard(agency, data: bytes, name="fse.csv", dry_run=False):
    return onboard(
        agency=agency, kind="establishments", data=data, name=name, today=TODAY, dry_run=dry_run
    )


@pytest.mark.parametrize(
    "cell", ["+cmd|' /C calc'!A0", "@SUM(1+1)", "=HYPERLINK(1)", "\uff1d1+1", " -1+1", "\t=1"]
)
def test_a_text_cell_that_a_spreadsheet_would_run_is_a_problem_of_its_row(cell):
    agency = make_agency()
    row = f'FSE-1,"{cell}",1 Pier Way,2015-03-01,Harbor Foods LLC,33.42,-117.61\n'
    outcome = _onboard(agency, (HEADER + row).encode())
    assert [(p.row, p.column) for p in outcome.problems] == [(2, "name")]
    assert "starts like a formula" in outcome.problems[0].reason
    assert not FoodServiceEstablishment.objects.exists()


def test_an_xlsx_text_cell_starting_with_equals_is_a_problem_too():
    agency = make_agency()
    book = Workbook()
    book.active.append(HEADER.strip().split(","))
    book.active.append(["FSE-1", "Grill", "1 St", "2015-01-01", "Op", None, None])
    book.active["B2"].value, book.active["B2"].data_type = "=1+1", "s"  # text, not a formula
    out = io.BytesIO()
    book.save(out)
    outcome = _onboard(agency, out.getvalue(), name="fse.xlsx")
    assert [(p.row, p.column) for p in outcome.problems] == [(2, "name")]


def test_a_negative_number_in_a_column_of_numbers_is_read_as_a_number():
    agency = make_agency()
    row = "FSE-1,Grill,1 St,2015-01-01,Op,-33.42,-117.61\n"
    outcome = _onboard(agency, (HEADER + row).encode())
    assert outcome.stored, outcome.problems
    assert str(FoodServiceEstablishment.objects.get().latitude) == "-33.420000"


def _named(agency) -> None:
    rows = "".join(
        f'FSE-{n},"{neutralise(name)}",{n} Pier Way,2015-03-01,Operator {n},,\n'
        for n, name in enumerate(NAMES, start=1)
    )
    outcome = _onboard(agency, (HEADER + rows).encode())
    assert outcome.stored, outcome.problems


def test_the_programs_export_is_neutralised_and_imports_back_to_the_same_names():
    source, target = make_agency(), make_agency(code="copy")
    _named(source)
    assert sorted(FoodServiceEstablishment.objects.values_list("name", flat=True)) == sorted(NAMES)
    archive = zipfile.ZipFile(io.BytesIO(b"".join(zip_chunks(source))))
    exported = archive.read("01-establishments.csv")
    names = [r["name"] for r in csv.DictReader(io.StringIO(exported.decode()))]
    assert {n for n in names if n[0] in "+-@=\uff1d"} == set()
    assert "'+Plus Grill" in names and "''+Quoted" in names
    outcome = _onboard(target, exported, name="01-establishments.csv")
    assert outcome.stored, outcome.problems
    assert sorted(
        FoodServiceEstablishment.objects.filter(agency=target).values_list("name", flat=True)
    ) == sorted(NAMES)


def test_the_xlsx_export_imports_back_to_the_same_names():
    source, target = make_agency(), make_agency(code="copy")
    _named(source)
    kind = KINDS["establishments"]
    data = write_rows(kind, records(kind, source), "xlsx")
    outcome = _onboard(target, data, name="01-establishments.xlsx")
    assert outcome.stored, outcome.problems
    assert sorted(
        FoodServiceEstablishment.objects.filter(agency=target).values_list("name", flat=True)
    ) == sorted(NAMES)

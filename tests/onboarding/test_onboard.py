"""Onboarding an agency from its spreadsheets (fogkeeper/onboarding): every planted bad row is
named by row, column and reason and nothing is stored; a dry run stores nothing and says what
would change; the same file twice changes nothing; XLSX reads as CSV does; a file refused as
a whole says why."""

from __future__ import annotations

import io
from datetime import date

import pytest
import tablib
from django.core.management import CommandError, call_command
from openpyxl import Workbook

from fogkeeper.audit.models import AuditEvent
from fogkeeper.onboarding.blank import blank
from fogkeeper.onboarding.importer import OnboardingError, onboard
from fogkeeper.onboarding.sheets import MAX_ROWS
from fogkeeper.registry.models import FoodServiceEstablishment, GreaseControlDevice, Hauler
from fogkeeper.rules.packs import default_registry
from tests.records import make_agency

pytestmark = pytest.mark.django_db

TODAY = date(2026, 6, 30)
ESTABLISHMENTS = (
    "code,name,address,city,category,on_public_sewer,opened_on,closed_on,operator_name,"
    "operator_since,latitude,longitude\n"
)
GOOD_FSE = (
    "FSE-1,Harbor Grill,101 Pier Way,San Clemente,,yes,2015-03-01,,Harbor Foods LLC,,33.42,"
    "-117.61\n"
    "FSE-2,Taco Stand,5 Main St,San Clemente,,,03/15/2019,,Ruiz Family Inc,2020-01-01,,\n"
)
DEVICES = "establishment_code,code,kind,installed_on,capacity_gallons,design_depth_inches\n"
HAULERS = "code,name,licence_number,licence_expires_on,licensed\n"


@pytest.fixture
def agency():
    return make_agency()


def run(agency, kind, text, *, dry_run=False, name="file.csv"):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return onboard(agency=agency, kind=kind, data=data, name=name, today=TODAY, dry_run=dry_run)


def kinds_of(agency):
    pack = default_registry().get(agency.pack)
    return next(iter(pack.device_kinds)), pack.categories


def test_establishments_devices_and_haulers_are_onboarded(agency):
    kind, _ = kinds_of(agency)
    first = run(agency, "establishments", ESTABLISHMENTS + GOOD_FSE)
    assert first.stored and first.counts == {"created": 2, "updated": 0, "unchanged": 0}
    grill = FoodServiceEstablishment.objects.get(agency=agency, code="FSE-1")
    assert grill.opened_on == date(2015, 3, 1) and grill.tenures.get().operator.name == (
        "Harbor Foods LLC"
    )
    taco = FoodServiceEstablishment.objects.get(code="FSE-2")
    assert taco.opened_on == date(2019, 3, 15) and taco.tenures.get().since == date(2020, 1, 1)
    devices = run(agency, "devices", DEVICES + f"FSE-1,GI-1,{kind},2015-03-01,750,48\n")
    assert devices.counts["created"] == 1, devices.problems
    assert GreaseControlDevice.objects.get(establishment=grill).capacity_gallons == 750
    haulers = run(agency, "haulers", HAULERS + "H-1,Coastal Pumping,L-77,2027-01-31,yes\n")
    assert (
        haulers.counts["created"] == 1 and Hauler.objects.get(code="H-1").licence_number == "L-77"
    )
    assert AuditEvent.objects.filter(action="onboarding.import").count() == 3


def test_the_same_file_twice_changes_nothing_and_a_changed_row_updates(agency):
    run(agency, "establishments", ESTABLISHMENTS + GOOD_FSE)
    again = run(agency, "establishments", ESTABLISHMENTS + GOOD_FSE)
    assert again.counts == {"created": 0, "updated": 0, "unchanged": 2}
    renamed = GOOD_FSE.replace("Harbor Grill", "Harbor Grill & Bar")
    changed = run(agency, "establishments", ESTABLISHMENTS + renamed)
    assert changed.counts == {"created": 0, "updated": 1, "unchanged": 1}
    assert FoodServiceEstablishment.objects.get(code="FSE-1").name == "Harbor Grill & Bar"


def test_a_dry_run_says_what_would_change_and_stores_nothing(agency):
    dry = run(agency, "establishments", ESTABLISHMENTS + GOOD_FSE, dry_run=True)
    assert dry.counts["created"] == 2 and not dry.problems and not dry.stored
    assert "would be created" in dry.summary()
    assert not FoodServiceEstablishment.objects.exists()
    assert not AuditEvent.objects.filter(action="onboarding.import").exists()


def test_an_xlsx_file_reads_as_the_csv_does(agency):
    book = Workbook()
    sheet = book.active
    for line in (ESTABLISHMENTS + GOOD_FSE).splitlines():
        sheet.append(line.split(","))
    sheet["G2"] = date(2015, 3, 1)  # a real date cell, as Excel keeps it
    out = io.BytesIO()
    book.save(out)
    outcome = run(agency, "establishments", out.getvalue(), name="program.xlsx")
    assert outcome.counts["created"] == 2, outcome.problems
    assert FoodServiceEstablishment.objects.get(code="FSE-1").opened_on == date(2015, 3, 1)


# Each planted row: (kind, the row, the column named, words the reason holds).
def planted(kind_word):
    future, old = "2027-01-01", "1899-12-31"
    fse = "FSE-9,Bad Cafe,1 Bad St,,,,2015-01-01,,Bad Foods,,,"
    return [
        ("establishments", fse.replace("FSE-9", ""), "code", "required"),
        ("establishments", fse.replace("Bad Cafe", ""), "name", "required"),
        ("establishments", fse.replace("1 Bad St", ""), "address", "required"),
        ("establishments", fse.replace("2015-01-01", ""), "opened_on", "required"),
        ("establishments", fse.replace("2015-01-01", "2015-02-30"), "opened_on", "not a date"),
        ("establishments", fse.replace("2015-01-01", future), "opened_on", "after today"),
        ("establishments", fse.replace("2015-01-01", old), "opened_on", "before 1900"),
        (
            "establishments",
            fse.replace(",,,,2015", ",,bakery_of_dreams,,2015"),
            "category",
            "not a category",
        ),
        (
            "establishments",
            fse.replace(",,,,2015", ",,,maybe,2015"),
            "on_public_sewer",
            "not yes or no",
        ),
        (
            "establishments",
            fse.replace("Bad Foods,,", "Bad Foods,2014-01-01,"),
            "operator_since",
            "opening",
        ),
        (
            "establishments",
            fse.replace("2015-01-01,,", "2015-01-01,2014-01-01,"),
            "closed_on",
            "before",
        ),
        (
            "establishments",
            fse.replace("Bad Foods,,,", "Bad Foods,,91,"),
            "latitude",
            "91 is not a latitude",
        ),
        (
            "establishments",
            fse.replace("Bad Foods,,,", "Bad Foods,,,abc"),
            "longitude",
            "not a number",
        ),
        ("establishments", fse.replace("Bad Cafe", "x" * 201), "name", "longer than 200"),
        ("establishments", fse.replace(",Bad Foods,", ",,"), "operator_name", "required"),
        (
            "devices",
            f"FSE-404,GI-1,{kind_word},2015-01-01,,",
            "establishment_code",
            "no establishment",
        ),
        ("devices", "FSE-1,GI-2,flux_capacitor,2015-01-01,,", "kind", "not a device kind"),
        ("devices", f"FSE-1,GI-2,{kind_word},2015-01-01,-5,", "capacity_gallons", "negative"),
        ("devices", f"FSE-1,GI-2,{kind_word},2015-01-01,,0", "design_depth_inches", "more than 0"),
        ("devices", f"FSE-1,GI-2,{kind_word},,,", "installed_on", "required"),
        ("devices", f"FSE-1,GI-2,{kind_word},{future},,", "installed_on", "after today"),
        ("haulers", "H-9,,L-1,,yes", "name", "required"),
        ("haulers", "H-9,Pumps Inc,,,perhaps", "licensed", "not yes or no"),
        ("haulers", "H-9,Pumps Inc,L-1,2026-13-01,yes", "licence_expires_on", "not a date"),
    ]


def test_every_planted_bad_row_is_named_and_nothing_is_stored(agency):
    kind_word, _ = kinds_of(agency)
    run(agency, "establishments", ESTABLISHMENTS + GOOD_FSE)
    headers = {"establishments": ESTABLISHMENTS, "devices": DEVICES, "haulers": HAULERS}
    good = {
        "establishments": "FSE-8,Good Cafe,2 Good St,,,,2016-01-01,,Good Foods,,,",
        "devices": f"FSE-2,GI-1,{kind_word},2019-03-15,500,40",
        "haulers": "H-8,Good Pumping,L-8,,yes",
    }
    cases = planted(kind_word)
    assert len(cases) >= 20
    for kind, row, column, reason in cases:
        before = (FoodServiceEstablishment.objects.count(), GreaseControlDevice.objects.count())
        outcome = run(agency, kind, headers[kind] + good[kind] + "\n" + row + "\n")
        found = [p for p in outcome.problems if p.row == 3]
        assert [p.column for p in found] == [column], (row, outcome.problems)
        assert reason in found[0].reason, (row, found[0].reason)
        assert not outcome.stored and not [p for p in outcome.problems if p.row == 2]
        after = (FoodServiceEstablishment.objects.count(), GreaseControlDevice.objects.count())
        assert after == before, row  # the good row beside it is not stored either


def test_a_duplicate_id_names_the_row_it_repeats(agency):
    outcome = run(
        agency, "establishments", ESTABLISHMENTS + GOOD_FSE + GOOD_FSE.splitlines()[0] + "\n"
    )
    assert [str(p) for p in outcome.problems] == ["row 4, column code: FSE-1 is also in row 2"]
    assert not FoodServiceEstablishment.objects.exists()


@pytest.mark.parametrize(
    ("data", "name", "words"),
    [
        (b"", "empty.csv", "is empty"),
        ("code,name\n".encode("utf-16"), "utf16.csv", "not UTF-8"),
        (
            b"code,name,address,opened_on,operator_name,colour\n",
            "extra.csv",
            "unknown column(s): colour",
        ),
        (b"code,name\nFSE-1,A\n", "short.csv", "missing required column(s): address, opened_on"),
        (b"code,code,name,address,opened_on,operator_name\n", "twice.csv", "named twice: code"),
        (b"PK\x03\x04 not really a workbook", "broken.xlsx", "not an XLSX workbook"),
    ],
)
def test_a_file_refused_as_a_whole_says_why(agency, data, name, words):
    with pytest.raises(OnboardingError) as refused:
        run(agency, "establishments", data, name=name)
    assert words in str(refused.value)
    assert not FoodServiceEstablishment.objects.exists()


def test_a_formula_in_an_xlsx_cell_is_refused(agency):
    book = Workbook()
    book.active.append(["code", "name", "address", "opened_on", "operator_name"])
    book.active.append(["FSE-1", '=CONCAT("a","b")', "1 St", "2015-01-01", "Op"])
    out = io.BytesIO()
    book.save(out)
    with pytest.raises(OnboardingError, match="row 2: a cell holds a formula"):
        run(agency, "establishments", out.getvalue(), name="f.xlsx")


def test_a_file_of_too_many_rows_is_refused(agency):
    rows = "".join(f"F{i},n,a,2015-01-01,o\n" for i in range(MAX_ROWS + 1))
    with pytest.raises(OnboardingError, match="at most 100,000"):
        run(agency, "establishments", "code,name,address,opened_on,operator_name\n" + rows)


def test_the_blank_file_has_the_packs_words(agency):
    _, categories = kinds_of(agency)
    pack = default_registry().get(agency.pack)
    book = tablib.Databook().load(blank("devices", pack, "xlsx"), "xlsx")
    columns, about = book.sheets()
    assert columns.headers[:3] == ["establishment_code", "code", "kind"]
    kind_row = next(r for r in about if r[0] == "kind")
    assert all(k in kind_row[2] for k in pack.device_kinds)
    assert blank("establishments", pack, "csv").decode().startswith("code,name,address,")


def test_the_command_runs_a_dry_run_and_refuses_with_the_rows(agency, tmp_path, capsys):
    path = tmp_path / "fse.csv"
    path.write_text(ESTABLISHMENTS + GOOD_FSE)
    call_command(
        "onboard", str(path), "--agency", agency.code, "--kind", "establishments", "--dry-run"
    )
    assert "2 would be created" in capsys.readouterr().out
    assert not FoodServiceEstablishment.objects.exists()
    path.write_text(ESTABLISHMENTS + GOOD_FSE.replace("2015-03-01", "2015-02-30"))
    with pytest.raises(CommandError, match="1 problem; nothing was stored"):
        call_command("onboard", str(path), "--agency", agency.code, "--kind", "establishments")
    assert "row 2, column opened_on: not a date" in capsys.readouterr().err
    call_command(
        "onboard",
        str(path),
        "--agency",
        agency.code,
        "--kind",
        "devices",
        "--blank",
        "--format",
        "csv",
    )
    assert path.read_text().startswith("establishment_code,code,kind,")

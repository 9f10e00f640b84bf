"""`manage.py import_manifests`: hauler pump-out manifests from CSV, all or nothing."""

from datetime import date, datetime
from decimal import Decimal
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.management import CommandError, call_command

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.maintenance.manifests import ManifestImportError, manifests_import
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import GreaseControlDevice
from tests.records import make_agency, make_device, make_establishment, make_hauler, make_service

pytestmark = pytest.mark.django_db

HEADER = (
    "hauler_code,manifest_number,establishment_code,device_code,service_date,full_pump_out,"
    "gallons_removed,fog_inches,solids_inches,final_chamber_floating_oil,"
    "sludge_to_outlet_inches,notes\n"
)
GOOD = HEADER + (
    "H-1,M-100,FSE-1,GI-1,2025-01-15,yes,750,4.5,6,no,,\n"
    'H-1,M-101,FSE-1,GI-1,02/20/2025,,"1,000",3,5.25,,2,"baffle ok, lid ok"\n'
    "H-1,M-102,FSE-2,GT-1,2025-03-01,no,40,1,1,yes,,\n"
)


@pytest.fixture
def agency():
    agency = make_agency()
    make_device(make_establishment(agency, code="FSE-1"), code="GI-1")
    make_device(
        make_establishment(agency, code="FSE-2", address="5 Calle Negocio"),
        code="GT-1",
        kind="trap",
    )
    make_hauler(agency, code="H-1")
    return agency


def run(agency, tmp_path, text):
    path = tmp_path / "manifests.csv"
    path.write_text(text, encoding="utf-8")
    out, err = StringIO(), StringIO()
    try:
        call_command("import_manifests", str(path), agency=agency.code, stdout=out, stderr=err)
    except CommandError as exc:
        return out.getvalue(), err.getvalue(), exc
    return out.getvalue(), err.getvalue(), None


def test_it_imports_a_good_file(agency, tmp_path):
    out, _, error = run(agency, tmp_path, GOOD)
    assert error is None
    assert "3 rows, 3 services created, 0 already imported" in out
    second = Service.objects.get(manifest_number="M-101")
    assert second.date == date(2025, 2, 20)
    assert second.gallons_removed == Decimal("1000")
    assert second.full_pump_out is True
    assert second.solids_inches == Decimal("5.25")
    assert second.final_chamber_floating_oil is None
    assert second.notes == "baffle ok, lid ok"
    assert Service.objects.get(manifest_number="M-102").full_pump_out is False


def test_it_writes_one_audit_row_per_import(agency, tmp_path):
    run(agency, tmp_path, GOOD)
    event = AuditEvent.objects.get(action="manifests.import")
    assert event.agency == agency
    assert event.after == {"file": "manifests.csv", "rows": 3, "created": 3, "already_imported": 0}


def test_it_adds_nothing_when_the_same_file_is_imported_twice(agency, tmp_path):
    run(agency, tmp_path, GOOD)
    out, _, error = run(agency, tmp_path, GOOD)
    assert error is None
    assert "0 services created, 3 already imported" in out
    assert Service.objects.count() == 3
    assert AuditEvent.objects.filter(action="manifests.import").count() == 1


def test_it_evaluates_again_the_establishments_given_pump_outs(agency, tmp_path):
    other = make_establishment(agency, code="FSE-3", address="9 Calle Negocio")
    with time_machine.travel(datetime(2025, 6, 30, 12, tzinfo=ZoneInfo("America/Los_Angeles"))):
        out, _, error = run(agency, tmp_path, GOOD)
    assert error is None and "2 establishments evaluated again" in out
    statuses = ComplianceStatus.objects.filter(establishment__agency=agency)
    assert sorted(statuses.values_list("establishment__code", "as_of")) == [
        ("FSE-1", date(2025, 6, 30)),
        ("FSE-2", date(2025, 6, 30)),
    ]
    assert not statuses.filter(establishment=other).exists()


def test_it_prints_progress(agency, tmp_path):
    out, _, _ = run(agency, tmp_path, GOOD)
    assert "checked 3/3 rows (100%)" in out
    assert "written 3/3 rows (100%)" in out


def test_a_file_with_one_bad_row_changes_nothing_and_names_it(agency, tmp_path):
    text = GOOD + "H-1,M-103,FSE-1,GI-1,2025-02-30,yes,10,1,1,,,\n"
    _, err, error = run(agency, tmp_path, text)
    assert "nothing was imported" in str(error)
    assert err.splitlines() == [
        "row 5, column service_date: not a date: '2025-02-30' (use YYYY-MM-DD or MM/DD/YYYY)"
    ]
    assert Service.objects.count() == 0
    assert not AuditEvent.objects.exists()


def test_it_lists_every_bad_row(agency, tmp_path):
    text = HEADER + (
        "H-9,M-1,FSE-1,GI-1,2025-01-15,yes,10,1,1,,,\n"
        "H-1,M-2,FSE-9,GI-1,2025-01-15,yes,10,1,1,,,\n"
        "H-1,M-3,FSE-1,GI-7,2025-01-15,yes,10,1,1,,,\n"
        "H-1,M-4,FSE-1,GI-1,2025-01-15,maybe,10,-2,1,sometimes,,\n"
        "H-1,M-4,FSE-1,GI-1,2025-01-16,yes,10.25,1,1,,,\n"
        "H-1,,FSE-1,GI-1,,yes,ten,1,1,,,\n"
    )
    _, err, error = run(agency, tmp_path, text)
    assert "11 problems" in str(error)
    assert err.splitlines() == [
        "row 2, column hauler_code: no hauler 'H-9' in this agency",
        "row 3, column establishment_code: no establishment 'FSE-9' in this agency",
        "row 4, column device_code: no device 'GI-7' at establishment 'FSE-1'",
        "row 5, column full_pump_out: not yes or no: 'maybe'",
        "row 5, column fog_inches: must not be negative: -2",
        "row 5, column final_chamber_floating_oil: not yes or no: 'sometimes'",
        "row 6, column manifest_number: manifest 'M-4' of hauler 'H-1' is already in row 5",
        "row 6, column gallons_removed: at most 1 decimal place: 10.25",
        "row 7, column manifest_number: missing",
        "row 7, column service_date: missing",
        "row 7, column gallons_removed: not a number: 'ten'",
    ]
    assert Service.objects.count() == 0


def test_it_refuses_a_manifest_already_imported_with_different_content(agency, tmp_path):
    device = make_device(agency.establishments.get(code="FSE-1"), code="GI-2")
    make_service(device, "M-100", "2025-01-14", hauler=agency.haulers.get(), fog_inches=4)
    _, err, error = run(agency, tmp_path, GOOD)
    assert error is not None
    assert err.splitlines() == [
        "row 2, column manifest_number: manifest 'M-100' of hauler 'H-1' was already imported "
        "with different content (device: GI-2 in the database, GI-1 in the file; "
        "date: 2025-01-14 in the database, 2025-01-15 in the file; "
        "gallons_removed: blank in the database, 750 in the file; "
        "fog_inches: 4.00 in the database, 4.5 in the file; "
        "solids_inches: blank in the database, 6 in the file; "
        "final_chamber_floating_oil: blank in the database, no in the file)"
    ]
    assert Service.objects.count() == 1


def test_it_names_unknown_and_missing_columns(agency, tmp_path):
    text = "hauler_code,manifest,establishment_code,device_code,service_date,colour\n"
    _, err, error = run(agency, tmp_path, text + "H-1,M-1,FSE-1,GI-1,2025-01-15,red\n")
    assert error is not None
    lines = err.splitlines()
    assert lines[0].startswith("unknown columns 'manifest', 'colour' (the columns are: ")
    assert lines[1] == "missing column 'manifest_number'"
    assert Service.objects.count() == 0


def test_it_accepts_a_file_without_the_optional_columns(agency, tmp_path):
    text = "service_date,device_code,establishment_code,manifest_number,hauler_code\n"
    _, _, error = run(agency, tmp_path, text + "2025-01-15,GI-1,FSE-1,M-1,H-1\n")
    assert error is None
    service = Service.objects.get()
    assert service.full_pump_out is True
    assert service.fog_inches is None


def test_it_refuses_a_service_date_in_the_future(agency, tmp_path):
    path = tmp_path / "m.csv"
    path.write_text(GOOD, encoding="utf-8")
    with pytest.raises(ManifestImportError) as caught:
        manifests_import(agency=agency, path=path, today=date(2025, 2, 28))
    assert caught.value.problems == ["row 4, column service_date: 2025-03-01 is in the future"]


def test_it_refuses_a_date_before_the_device_was_installed(agency, tmp_path):
    text = HEADER + "H-1,M-1,FSE-1,GI-1,2004-12-31,yes,10,1,1,,,\n"
    _, err, _ = run(agency, tmp_path, text)
    assert err.splitlines() == [
        "row 2, column service_date: 2004-12-31 is before the device was installed (2005-01-01)"
    ]


def test_it_refuses_a_row_with_too_many_values(agency, tmp_path):
    _, err, _ = run(agency, tmp_path, GOOD + "H-1,M-9,FSE-1,GI-1,2025-01-15,yes,1,1,1,,,,extra\n")
    assert err.splitlines() == ["row 5: has 13 values, the header has 12 columns"]


def test_it_refuses_a_file_that_is_not_utf8(agency, tmp_path):
    path = tmp_path / "m.csv"
    path.write_bytes((GOOD + "H-1,M-9,FSE-1,GI-1,2025-01-15,yes,1,1,1,,,Café\n").encode("cp1252"))
    with pytest.raises(ManifestImportError, match="not UTF-8 text"):
        manifests_import(agency=agency, path=path)


def test_it_refuses_an_unknown_agency(agency, tmp_path):
    path = tmp_path / "m.csv"
    path.write_text(GOOD, encoding="utf-8")
    with pytest.raises(CommandError, match="no agency 'nowhere'"):
        call_command("import_manifests", str(path), agency="nowhere", stdout=StringIO())


# -- no row lost (issue 15, items 8, 9, 12) --------------------------------------------------
ROW = "H-1,M-{n},FSE-1,GI-1,2025-01-1{n},yes,{gallons},4.5,6,no,,{notes}\n"


def refused(agency, text):
    with pytest.raises(ManifestImportError) as caught:
        manifests_import(agency=agency, data=text.encode(), name="june.csv")
    assert Service.objects.count() == 0
    return caught.value.problems


def test_it_refuses_a_quote_left_open_that_folds_the_next_row_into_the_notes(agency):
    text = (
        HEADER
        + ROW.format(n=1, gallons=40, notes='"lid cracked')
        + ROW.format(n=2, gallons=40, notes='ok"')
    )
    assert refused(agency, text) == [
        "row 2, column notes: holds a line break: the row runs from line 2 to line 3 of the "
        "file (a quote left open?); each row must be on one line"
    ]


def test_it_refuses_a_quote_left_open_to_the_end_of_the_file(agency):
    text = (
        HEADER
        + ROW.format(n=1, gallons=40, notes='"lid cracked')
        + ROW.format(n=2, gallons=40, notes="")
    )
    assert refused(agency, text) == [
        "row 2: opens a quote that is never closed (a quote left open?); nothing after it was read"
    ]


def test_it_refuses_a_line_break_in_a_value_where_none_belongs(agency):
    text = HEADER + ROW.format(n=1, gallons=40, notes="") + 'H-1,"M-\n2",FSE-1,GI-1,2025-01-12\n'
    assert refused(agency, text)[0].startswith("row 3, column manifest_number: holds a line break")


def test_it_names_the_row_of_a_value_over_128_kib_in_the_command(agency, tmp_path):
    huge = "x" * (128 * 1024 + 1)
    _, err, error = run(agency, tmp_path, GOOD + ROW.format(n=3, gallons=40, notes=huge))
    assert "nothing was imported" in str(error)
    assert err.splitlines() == [
        "row 5: holds a value longer than 131,072 characters (128 KiB); nothing after it was read"
    ]
    assert Service.objects.count() == 0


@pytest.mark.parametrize("number", ["１２００", "1e3", "1E3", "١٢", "+5", "Infinity"])
def test_it_refuses_a_number_not_in_plain_digits(agency, number):
    (problem,) = refused(agency, HEADER + ROW.format(n=1, gallons=number, notes=""))
    assert problem.startswith(f"row 2, column gallons_removed: not a number: {number!r}")


def test_it_refuses_a_date_in_fullwidth_digits(agency):
    text = HEADER + "H-1,M-1,FSE-1,GI-1,２０２５-０１-１５,yes,10,1,1,,,\n"
    assert refused(agency, text)[0].startswith("row 2, column service_date: not a date")


def test_it_refuses_a_service_date_after_the_agencys_today_when_none_is_given(agency):
    problems = refused(agency, HEADER + "H-1,M-1,FSE-1,GI-1,9999-12-31,yes,10,1,1,,,\n")
    assert problems == ["row 2, column service_date: 9999-12-31 is in the future"]


def test_it_still_reads_plain_numbers_with_thousands_separators(agency):
    text = HEADER + ROW.format(n=1, gallons='"1,200.5"', notes="")
    manifests_import(agency=agency, data=text.encode(), name="june.csv", today=date(2025, 6, 1))
    assert str(Service.objects.get().gallons_removed) == "1200.5"


def test_it_refuses_fog_and_solids_deeper_than_the_device(agency):
    """Issue 39: a misread depth opened a violation at 129% of the device."""
    GreaseControlDevice.objects.filter(code="GI-1").update(design_depth_inches=48)
    text = HEADER + "H-1,M-100,FSE-1,GI-1,2025-01-15,yes,750,2,60,no,,\n"
    assert refused(agency, text) == [
        "row 2, column solids_inches: GI-1: FOG (2 in) and solids (60 in) come to 62 in, more "
        "than its design depth of 48 in; check the readings."
    ]

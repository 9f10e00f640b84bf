"""Onboarding what happened (fogkeeper/onboarding/history.py, onsite.py): permits, pump-outs
and the rest are checked as the services check them, every planted bad row named by row,
column and reason with nothing stored; a pump-out is found again by its establishment, device,
hauler and manifest, so a second import changes nothing and a changed row updates its record
with an audit row; `onboard` takes several files, in order, telling a file's kind from its
name."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
import tablib
from django.core.management import CommandError, call_command

from fogkeeper.audit.models import AuditEvent
from fogkeeper.inspections.models import Measurement
from fogkeeper.maintenance.models import Service
from fogkeeper.onboarding.blank import blank
from fogkeeper.onboarding.export import kind_of
from fogkeeper.onboarding.importer import onboard
from fogkeeper.permits.models import Permit
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.rules.packs import default_registry
from fogkeeper.training.models import Attendance
from tests.records import make_agency

pytestmark = pytest.mark.django_db

TODAY = date(2026, 6, 30)
FSE = "code,name,address,opened_on,operator_name\nFSE-1,Grill,1 Pier Way,2015-03-01,Grill LLC\n"
HAULERS = "code,name\nH-1,Coastal Pumping\nH-2,Valley Vac\n"
PUMPOUTS = (
    "establishment_code,device_code,hauler_code,manifest_number,service_date,gallons_removed\n"
)
GOOD_PUMPOUT = "FSE-1,GI-1,H-1,M-1,2025-05-01,750\n"
PERMITS = "establishment_code,number,holder,issued_on,expires_on,status,discharge_limits\n"
GOOD_PERMIT = "FSE-1,P-1,Grill LLC,2024-07-01,2026-06-30,,oil_and_grease: 100 mg/L\n"


def run(agency, kind, text, *, dry_run=False):
    return onboard(
        agency=agency,
        kind=kind,
        data=text.encode(),
        name=f"{kind}.csv",
        today=TODAY,
        dry_run=dry_run,
    )


@pytest.fixture
def agency():
    agency = make_agency()
    kind = next(iter(default_registry().get(agency.pack).device_kinds))
    run(agency, "establishments", FSE)
    run(agency, "haulers", HAULERS)
    devices = "establishment_code,code,kind,installed_on,removed_on\n"
    run(
        agency,
        "devices",
        devices + f"FSE-1,GI-1,{kind},2015-03-01,\nFSE-1,GI-2,{kind},2015-03-01,2020-01-01\n",
    )
    return agency


def test_pump_outs_are_found_again_by_establishment_device_hauler_and_manifest(agency):
    first = run(agency, "pumpouts", PUMPOUTS + GOOD_PUMPOUT)
    assert first.stored and first.counts["created"] == 1, first.problems
    service = Service.objects.get()
    assert (service.hauler.code, service.date, service.source) == (
        "H-1",
        date(2025, 5, 1),
        "import",
    )
    again = run(agency, "pumpouts", PUMPOUTS + GOOD_PUMPOUT)
    assert again.counts == {"created": 0, "updated": 0, "unchanged": 1}
    changed = run(agency, "pumpouts", PUMPOUTS + GOOD_PUMPOUT.replace(",750", ",800"))
    assert changed.counts["updated"] == 1
    assert Service.objects.get().gallons_removed == Decimal(800)
    event = AuditEvent.objects.get(action="onboarding.update")
    assert (event.before, event.after) == ({"gallons_removed": "750.0"}, {"gallons_removed": "800"})
    imports = AuditEvent.objects.filter(action="onboarding.import", after__kind="pumpouts")
    assert [e.after["created"] for e in imports.order_by("pk")] == [1, 0, 0]


def test_a_permit_is_onboarded_with_its_limits(agency):
    outcome = run(agency, "permits", PERMITS + GOOD_PERMIT)
    assert outcome.stored, outcome.problems
    permit = Permit.objects.get(number="P-1")
    assert permit.status == "active" and permit.agency == agency
    assert permit.discharge_limits == {"oil_and_grease": {"max": 100, "unit": "mg/L"}}


# (kind, header, the bad row, the column named, words of the reason)
# fmt: off
PLANTED = [
    ("pumpouts", PUMPOUTS, "FSE-1,GI-1,H-9,M-2,2025-05-01,", "hauler_code", "no hauler 'H-9'"),
    ("pumpouts", PUMPOUTS, "FSE-1,GI-7,H-1,M-2,2025-05-01,", "device_code", "no device 'GI-7'"),
    ("pumpouts", PUMPOUTS, "FSE-1,GI-1,H-1,M-2,2014-05-01,", "service_date", "installed"),
    ("pumpouts", PUMPOUTS, "FSE-1,GI-2,H-1,M-2,2021-05-01,", "service_date", "removed"),
    ("pumpouts", PUMPOUTS, "FSE-1,GI-1,H-1,M-2,2026-07-01,", "service_date", "after today"),
    ("pumpouts", PUMPOUTS, "FSE-1,GI-1,H-1,M-2,2025-05-01,1.25", "gallons_removed", "1 decimal"),
    ("pumpouts", PUMPOUTS, "FSE-1,GI-2,H-1,M-1,2019-05-01,", "manifest_number", "one visit"),
    ("pumpouts", PUMPOUTS, "FSE-1,GI-1,H-1,M-1,2025-05-02,", "manifest_number", "also in row 2"),
    ("permits", PERMITS, "FSE-1,P-2,Grill LLC,2024-07-01,2024-06-30,,", "expires_on", "before"),
    ("permits", PERMITS, "FSE-1,P-2,Grill LLC,2024-07-01,2026-06-30,lapsed,", "status",
     "not a permit status"),
    ("permits", PERMITS, "FSE-1,P-2,Grill LLC,2024-07-01,2026-06-30,,fog: lots", "discharge_limits",
     "not a limit"),
    ("permits", PERMITS, "FSE-9,P-2,Grill LLC,2024-07-01,2026-06-30,,", "establishment_code",
     "no establishment"),
    ("permits", PERMITS, "FSE-1,P-1,Grill LLC,2024-07-01,2026-06-30,,", "number", "also in row 2"),
    ("employees", "establishment_code,code,name,hired_on,left_on\n",
     "FSE-1,E-2,Ana,2024-01-01,2023-01-01", "left_on", "before the hiring"),
    ("attendance", "establishment_code,training_code,employee_code\n", "FSE-1,T-1,E-9",
     "employee_code", "no employee 'E-9'"),
    ("checklist_answers", "establishment_code,inspection_code,item,compliant\n",
     "FSE-1,I-1,gcd.flux,yes", "item", "not a checklist item"),
    ("checklist_answers", "establishment_code,inspection_code,item,compliant\n",
     "FSE-1,I-1,{item},maybe", "compliant", "not yes or no"),
    ("measurements", "establishment_code,inspection_code,device_code,fog_inches\n",
     "FSE-1,I-2,GI-1,3", "inspection_code", "no inspection 'I-2'"),
    ("operation_changes", "establishment_code,date,kind\n", "FSE-1,2020-01-01,demolition",
     "kind", "not a change"),
    ("incidents", "code,establishment_code,date\n", "SSO-1,FSE-1,1899-01-01", "date",
     "before 1900"),
]
# fmt: on
GOOD = {
    "pumpouts": GOOD_PUMPOUT.strip(),
    "permits": GOOD_PERMIT.strip(),
    "employees": "FSE-1,E-1,Ana,2024-01-01,",
    "attendance": "FSE-1,T-1,E-1",
    "checklist_answers": "FSE-1,I-1,{item},yes",
    "measurements": "FSE-1,I-1,GI-1,3",
    "operation_changes": "FSE-1,2020-01-01,remodel",
    "incidents": "SSO-0,FSE-1,2025-01-01",
}


def test_every_planted_bad_row_of_what_happened_is_named_and_nothing_is_stored(agency):
    item = sorted(default_registry().get(agency.pack).checklist)[0]
    run(agency, "employees", "establishment_code,code,name,hired_on\nFSE-1,E-1,Ana,2024-01-01\n")
    run(agency, "trainings", "establishment_code,code,date\nFSE-1,T-1,2024-02-01\n")
    run(agency, "inspections", "establishment_code,code,date\nFSE-1,I-1,2024-02-01\n")
    for kind, header, row, column, reason in PLANTED:
        good, row = GOOD[kind].format(item=item), row.format(item=item)
        outcome = run(agency, kind, f"{header}{good}\n{row}\n")
        found = [p for p in outcome.problems if p.row == 3]
        assert [p.column for p in found] == [column], (row, outcome.problems)
        assert reason in found[0].reason, (row, found[0].reason)
        assert not outcome.stored and not [p for p in outcome.problems if p.row == 2], row
    assert not Service.objects.exists() and not Permit.objects.exists()
    assert not Attendance.objects.exists()


def test_the_blank_file_says_what_identifies_a_record(agency):
    pack = default_registry().get(agency.pack)
    columns, about = tablib.Databook().load(blank("pumpouts", pack, "xlsx"), "xlsx").sheets()
    assert columns.headers[:4] == [
        "establishment_code",
        "device_code",
        "hauler_code",
        "manifest_number",
    ]
    manifest = next(r for r in about if r[0] == "manifest_number")[2]
    assert "a row with the same ones updates it" in manifest
    answers = blank("checklist_answers", pack, "xlsx")
    item = next(r for r in tablib.Databook().load(answers, "xlsx").sheets()[1] if r[0] == "item")
    assert all(i in item[2] for i in pack.checklist)


def test_the_command_imports_several_files_in_order_telling_their_kind_by_name(tmp_path):
    agency = make_agency()
    first, second = tmp_path / "01-establishments.csv", tmp_path / "02-haulers-01.csv"
    first.write_text(FSE)
    second.write_text(HAULERS)
    call_command("onboard", str(first), str(second), "--agency", agency.code, "--dry-run")
    assert not FoodServiceEstablishment.objects.exists()
    call_command("onboard", str(first), str(second), "--agency", agency.code)
    assert agency.haulers.count() == 2 and agency.establishments.count() == 1
    third = tmp_path / "07-pumpouts.csv"
    third.write_text(PUMPOUTS + GOOD_PUMPOUT)  # no device GI-1: refused, the others kept
    with pytest.raises(CommandError, match=r"07-pumpouts.csv: 1 problem; nothing was stored"):
        call_command("onboard", str(first), str(third), "--agency", agency.code)
    assert agency.establishments.count() == 1 and not Service.objects.exists()
    with pytest.raises(CommandError, match="its name does not say which kind"):
        call_command("onboard", str(tmp_path / "program.csv"), "--agency", agency.code)
    assert kind_of("07-pumpouts-12.xlsx") == "pumpouts" and kind_of("notes.xlsx") is None


MEASURED = "establishment_code,inspection_code,device_code,fog_inches,solids_inches\n"


def test_readings_deeper_than_the_device_or_negative_are_refused_in_words(agency):
    """60 in of solids in a 48-in interceptor is refused as the forms refuse it, naming the
    device and its depth; a negative depth is refused too; nothing is stored."""
    kind = next(iter(default_registry().get(agency.pack).device_kinds))
    run(
        agency,
        "devices",
        "establishment_code,code,kind,installed_on,design_depth_inches\n"
        f"FSE-1,GI-3,{kind},2015-03-01,48\n",
    )
    run(agency, "inspections", "establishment_code,code,date\nFSE-1,I-1,2024-02-01\n")
    header = PUMPOUTS.strip() + ",fog_inches,solids_inches\n"
    for kind, text in (
        ("pumpouts", header + "FSE-1,GI-3,H-1,M-9,2025-05-01,750,10,60\n"),
        ("measurements", MEASURED + "FSE-1,I-1,GI-3,10,60\n"),
    ):
        outcome = run(agency, kind, text)
        assert not outcome.stored
        (problem,) = outcome.problems
        assert problem.column == "solids_inches"
        assert problem.reason.startswith(
            "GI-3: FOG (10 in) and solids (60 in) come to 70 in, more than its design depth of "
            "48 in"
        ), problem.reason
    negative = run(agency, "measurements", MEASURED + "FSE-1,I-1,GI-3,-2,6\n")
    assert [(p.column, p.reason) for p in negative.problems] == [
        ("fog_inches", "must not be negative: -2")
    ]
    assert not Service.objects.exists() and not Measurement.objects.exists()

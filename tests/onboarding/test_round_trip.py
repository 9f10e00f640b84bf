"""Exporting a program and importing it into an empty agency of the same pack gives the same
sweep findings (issue 26), for every bundled pack: a generated program is swept, exported
(`export_program`, one file per kind), imported with one `onboard` command into a new
agency, swept on the same day, and every establishment's stored findings and status are
compared, less database ids."""

from __future__ import annotations

from datetime import date, datetime
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.management import call_command

from fogkeeper.compliance.models import ComplianceStatus, Finding
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.onboarding.export import export_program
from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from fogkeeper.rules.packs import default_registry

pytestmark = pytest.mark.django_db

AS_OF = date(2026, 6, 30)
FINDING = (
    "rule",
    "subject",
    "severity",
    "since",
    "due",
    "resolved_on",
    "open",
    "citation",
    "message",
    "evidence",
    "first_seen_on",
    "last_seen_on",
    "closed_on",
)
STATUS = (
    "as_of",
    "status",
    "status_citation",
    "open_violations",
    "schedule",
    "deadlines",
    "accruals",
    "next_due",
    "next_inspection_due",
)


def findings(agency: Agency) -> dict[str, list]:
    """Per establishment code: its findings (every stored field but ids) and its status."""
    found: dict[str, list] = {}
    for code, *row in (
        Finding.objects.filter(agency=agency)
        .order_by("establishment__code", "rule", "subject", "since")
        .values_list("establishment__code", *FINDING)
    ):
        found.setdefault(code, []).append(tuple(row))
    for code, *row in ComplianceStatus.objects.filter(establishment__agency=agency).values_list(
        "establishment__code", *STATUS
    ):
        found.setdefault(code, []).append(("status", *row))
    return found


@pytest.fixture(params=default_registry().ids())
def program(request):
    out = StringIO()
    call_command(
        "generate",
        establishments=150,
        years=3,
        as_of=AS_OF.isoformat(),
        agency_code="original",
        pack=request.param,
        seed=26,
        stdout=out,
    )
    agency = Agency.objects.get(code="original")
    sweep_agency(agency, as_of=AS_OF)
    return agency


def test_an_exported_program_imported_into_an_empty_agency_gives_the_same_findings(
    program, tmp_path
):
    files = export_program(program, tmp_path, file_format="xlsx")
    copy = Agency.objects.create(code="copy", name="The copy", pack=program.pack)
    with time_machine.travel(datetime(2026, 6, 30, 12, tzinfo=ZoneInfo("UTC")), tick=False):
        call_command("onboard", *map(str, files), agency="copy", stdout=StringIO())
    assert FoodServiceEstablishment.objects.filter(agency=copy).count() == 150
    sweep_agency(copy, as_of=AS_OF)
    original, copied = findings(program), findings(copy)
    kinds = {f[0] for rows in original.values() for f in rows}
    # findings of many kinds to compare: more than one an establishment (Cleburne's pack, of
    # one rule and four questions, gives 181; the others over 300)
    assert sum(len(f) for f in original.values()) > 150
    assert len(kinds) > 5
    assert copied == original


def test_a_program_imported_again_changes_nothing(program, tmp_path):
    files = export_program(program, tmp_path, file_format="csv")
    out = StringIO()
    with time_machine.travel(datetime(2026, 6, 30, 12, tzinfo=ZoneInfo("UTC")), tick=False):
        call_command("onboard", *map(str, files), agency="original", stdout=out)
    lines = [line for line in out.getvalue().splitlines() if " rows of " in line]
    assert len(lines) == len(files) and all(" 0 were created, 0 were updated" in x for x in lines)

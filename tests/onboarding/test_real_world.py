"""A real city's spreadsheet onboarded as it comes (issue 38, item 5): coordinates with 14
decimals are rounded to the six the register keeps, negative longitudes keep their sign in
every message, a point far out of the agency's area is told, devices without pump-out history
are told what the first sweep would find; all as warnings, never refusals, and the same file
twice changes nothing and warns the same."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from fogkeeper.onboarding.importer import onboard
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.rules.packs import default_registry
from tests.records import make_agency

pytestmark = pytest.mark.django_db

TODAY = date(2026, 11, 30)
HEADER = "code,name,address,city,state,opened_on,operator_name,latitude,longitude\n"
ROWS = (
    "".join(
        f"FSE-{i},Grill {i},{i} Grand Ave,Des Moines,IA,2015-03-01,Foods {i} LLC,"
        f"41.58{i}81234567891,-93.62{i}01234567891\n"
        for i in range(8)
    )
    + "FSE-9,Far Diner,1 Liberty Ave,Pittsburgh,PA,2015-03-01,Far LLC,"
    + "40.44062479999999,-79.99589559999999\n"
)


def run(agency, kind, text, dry_run=False):
    return onboard(
        agency=agency,
        kind=kind,
        data=text.encode(),
        name=f"{kind}.csv",
        today=TODAY,
        dry_run=dry_run,
    )


def devices_file(agency) -> str:
    kind = next(iter(default_registry().get(agency.pack).device_kinds))
    return "establishment_code,code,kind,installed_on\n" + "".join(
        f"FSE-{i},GI-1,{kind},2016-01-01\n" for i in (*range(8), 9)
    )


@pytest.fixture
def agency():
    return make_agency()


def test_the_real_world_file_imports_twice_with_the_same_warnings_and_no_refusal(agency):
    first = run(agency, "establishments", HEADER + ROWS)
    assert first.problems == [] and first.counts["created"] == 9
    rounded, far = first.warnings
    assert rounded.startswith("18 coordinates had more than 6 decimals and were rounded to 6")
    assert "row 2: latitude 41.58081234567891 kept as 41.580812" in rounded
    assert far.startswith("1 establishment of this file lies more than 25 km from the middle")
    assert "row 10 (FSE-9) at 40.4406, -79.9959" in far
    grill = FoodServiceEstablishment.objects.get(agency=agency, code="FSE-1")
    assert (grill.latitude, grill.longitude, grill.state) == (
        Decimal("41.581812"),
        Decimal("-93.621012"),
        "IA",
    )
    again = run(agency, "establishments", HEADER + ROWS)
    assert again.problems == [] and again.counts == {"created": 0, "updated": 0, "unchanged": 9}
    assert again.warnings == first.warnings


def test_a_bad_coordinate_keeps_its_minus_sign(agency):
    outcome = run(agency, "establishments", HEADER + ROWS.replace("-93.62101234567891", "-193.5"))
    assert [(p.row, p.column, p.reason) for p in outcome.problems] == [
        (3, "longitude", "-193.5 is not a longitude: it lies between -180 and 180")
    ]
    outcome = run(agency, "establishments", HEADER + ROWS.replace("-93.62101234567891", "-9x"))
    assert outcome.problems[0].reason.startswith("not a number: '-9x'")


def test_a_point_outside_the_area_the_agency_set_is_told(agency):
    agency.area_south, agency.area_north = Decimal("41.40"), Decimal("41.70")
    agency.area_west, agency.area_east = Decimal("-93.80"), Decimal("-93.45")
    agency.save()
    outcome = run(agency, "establishments", HEADER + ROWS, dry_run=True)
    assert outcome.problems == []
    assert outcome.warnings[1] == (
        "1 establishment of this file lies outside the agency's area (latitude 41.4 to 41.7, "
        "longitude -93.8 to -93.45, set on the onboarding page): row 10 (FSE-9) at 40.4406, "
        "-79.9959. Check the coordinates (a dropped minus sign, latitude and longitude "
        "swapped); they are imported as they are."
    )


def test_devices_without_pump_out_history_say_what_the_first_sweep_finds(agency):
    run(agency, "establishments", HEADER + ROWS)
    dry = run(agency, "devices", devices_file(agency), dry_run=True)
    assert dry.problems == []
    (warning,) = dry.warnings
    assert warning.startswith(
        "9 devices have no pump-out on record: the first sweep would find them all overdue"
    )
    agency.history_starts, agency.history_grace_days = date(2026, 12, 1), 60
    agency.save()
    for _ in range(2):
        outcome = run(agency, "devices", devices_file(agency))
        assert outcome.problems == []
        assert outcome.warnings == [
            "9 devices have no pump-out on record. Pump-out history starts 2026-12-01 for "
            'this agency: they are "no record yet", not overdue, until 2027-01-30 (a grace '
            "of 60 days); import their pump-outs, or they are counted overdue from then."
        ]

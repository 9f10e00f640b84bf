"""The CIWQS import fills what the State's General Order asks of a spill from the export's own
columns, and derives the category where they decide it. The rows of
data/ciwqs-spill-rows.csv are copied unchanged from ../shared/data/ciwqs/plsd-regions-1-8.csv
(spills 724019, 713202, 759413, 778690, 781607 and 759085)."""

from datetime import datetime
from decimal import Decimal
from io import StringIO
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command

from fogkeeper.audit.models import AuditEvent
from fogkeeper.incidents.ciwqs_cells import moment, yes_no
from fogkeeper.incidents.models import Incident
from tests.records import make_agency

pytestmark = pytest.mark.django_db

ROWS = Path(__file__).resolve().parent / "data" / "ciwqs-spill-rows.csv"
LA = ZoneInfo("America/Los_Angeles")


@pytest.fixture
def imported():
    agency = make_agency()
    out = StringIO()
    call_command("import_ciwqs", str(ROWS), agency=agency.code, stdout=out)
    return {i.code: i for i in Incident.objects.filter(agency=agency)}, out.getvalue()


def test_it_fills_the_volumes_the_flags_and_the_times(imported):
    spill = imported[0]["724019"]
    assert (spill.gallons, spill.gallons_recovered, spill.gallons_to_surface_water) == (
        Decimal("10.0"),
        Decimal("0.0"),
        Decimal("10.0"),
    )
    assert (spill.reached_surface_water, spill.reached_storm_drain) == (True, True)
    assert spill.storm_drain_fully_captured is False
    assert spill.started_at == datetime(2008, 7, 17, 9, 0, tzinfo=LA)
    assert spill.ended_at == datetime(2008, 7, 17, 11, 15, tzinfo=LA)
    assert spill.known_at == datetime(2008, 7, 17, 9, 0, tzinfo=LA)


def test_it_derives_category_1_for_a_spill_reaching_surface_water(imported):
    assert (imported[0]["724019"].category, imported[0]["724019"].category_source) == (
        1,
        "derived",
    )


def test_it_derives_category_1_for_a_storm_drain_not_returned_to_the_sewer(imported):
    assert imported[0]["713202"].category == 1


def test_a_storm_drain_returned_to_the_sewer_goes_by_volume(imported):
    spill = imported[0]["759413"]
    assert spill.storm_drain_fully_captured is True
    assert spill.category == 2  # 1,000 gallons exactly


def test_it_derives_categories_3_and_4_on_the_50_gallon_boundary(imported):
    assert imported[0]["778690"].category == 3  # 50 gallons
    assert imported[0]["781607"].category == 4  # 49 gallons


def test_a_not_applicable_text_is_no_answer():
    assert yes_no("Not Applicable - Spill did not reach a separate storm drainpipe") is None
    assert (yes_no("Yes"), yes_no("No"), yes_no("")) == (True, False, None)


def test_a_row_contradicting_itself_is_left_for_staff(imported):
    spill = imported[0]["759085"]  # REACH_SURFACE No, SPILL_VOL_REACH_SURF 15.0
    assert (spill.category, spill.category_source) == (None, "")


def test_the_summary_counts_the_categories_and_what_was_left_for_staff(imported):
    out = imported[1]
    assert "  categories derived: 1: 2, 2: 1, 3: 1, 4: 1" in out
    assert "  category left for staff: 1 (REACH_SURFACE No but SPILL_VOL_REACH_SURF" in out
    event = AuditEvent.objects.get(action="ciwqs.import")
    assert event.after["categories"] == {"1": 2, "2": 1, "3": 1, "4": 1}
    assert event.after["category_left_for_staff"] == 1


@pytest.mark.parametrize(
    "text, expected",
    [
        ("15-SEP-07 05.00.00.000000 PM", datetime(2007, 9, 15, 17, 0, tzinfo=LA)),
        ("06-DEC-10 12.00.00.000000 PM", datetime(2010, 12, 6, 12, 0, tzinfo=LA)),
        ("06-DEC-10 12.30.00.000000 AM", datetime(2010, 12, 6, 0, 30, tzinfo=LA)),
        ("09/15/2007 18:00", datetime(2007, 9, 15, 18, 0, tzinfo=LA)),
        ("April 00:30", None),
        ("", None),
    ],
)
def test_it_reads_the_times_as_local_time(text, expected):
    assert moment(text) == expected

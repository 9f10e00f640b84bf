"""The deadlines of Attachment E1 for each category, on their boundaries, on the State's
legal calendar; datetimes are stored in UTC and counted from the local date."""

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from fogkeeper.incidents import spills
from fogkeeper.incidents.models import Incident
from fogkeeper.incidents.reporting_pack import reporting_pack

ORDER = reporting_pack()  # California's General Order: the State pack these cases are of


def deadlines(incident, as_of):
    return spills.deadlines(incident, as_of, ORDER)


LA = ZoneInfo("America/Los_Angeles")


def local(*args):
    return datetime(*args, tzinfo=LA)


def spill(category=2, **kw):
    kw.setdefault("date", date(2025, 3, 3))
    kw.setdefault("known_at", local(2025, 3, 3, 9, 0))
    kw.setdefault("ended_at", local(2025, 3, 3, 11, 0))
    return Incident(category=category, gallons=Decimal("1500"), source="staff", **kw)


def by_key(incident, as_of):
    return {d.key: d for d in deadlines(incident, as_of)}


@pytest.mark.parametrize(("days", "state"), [(14, "due"), (15, "due"), (16, "late")])
def test_the_certified_report_is_due_15_calendar_days_after_the_spill_end(days, state):
    end = date(2025, 3, 3)
    d = by_key(spill(), end + timedelta(days=days))["certified_report"]
    assert d.due == date(2025, 3, 18)
    assert d.state == state
    assert d.citation == "Order WQ 2022-0103-DWQ Att. E1 §3.2.2"


def test_a_spill_ending_at_23_30_local_counts_from_that_local_date():
    ended = local(2025, 3, 3, 23, 30)
    assert ended.astimezone(UTC).date() == date(2025, 3, 4)  # stored in UTC: the next day
    d = by_key(spill(ended_at=ended.astimezone(UTC)), date(2025, 3, 5))["certified_report"]
    assert d.due == date(2025, 3, 18)
    assert d.counted_from == "the spill end date (2025-03-03)"


def test_three_business_days_over_thanksgiving():
    # Knowledge on the Wednesday before Thanksgiving 2025: Thursday is a holiday (Gov. Code
    # §6700), Friday is not one of §6700's; then Monday, Tuesday.
    incident = spill(known_at=local(2025, 11, 26, 16, 0), date=date(2025, 11, 26))
    d = by_key(incident, date(2025, 11, 26))["draft_report"]
    assert d.due == date(2025, 12, 2)
    assert d.citation == "Order WQ 2022-0103-DWQ Att. E1 §3.2.1"


def test_three_business_days_over_a_weekend():
    incident = spill(known_at=local(2025, 3, 7, 8, 0))  # a Friday
    assert by_key(incident, date(2025, 3, 7))["draft_report"].due == date(2025, 3, 12)


def test_a_report_done_on_the_due_date_is_done_and_after_it_done_late():
    on_time = spill(certified_report_on=date(2025, 3, 18))
    late = spill(certified_report_on=date(2025, 3, 19))
    assert by_key(on_time, date(2025, 4, 1))["certified_report"].state == "done"
    assert by_key(late, date(2025, 4, 1))["certified_report"].state == "done_late"


def test_a_deadline_without_its_starting_time_cannot_be_computed():
    d = by_key(spill(known_at=None), date(2025, 3, 5))["draft_report"]
    assert (d.due, d.state) == (None, "unknown")
    assert d.counted_from == "knowledge of the spill (not recorded)"


def test_category_1_owes_a_draft_a_certified_report_and_may_amend_for_90_days():
    d = by_key(spill(category=1), date(2025, 6, 2))
    assert list(d) == ["draft_report", "certified_report", "amended_report"]
    amended = d["amended_report"]
    assert amended.due == date(2025, 6, 1)
    assert amended.state == "closed"  # a window, never late
    assert by_key(spill(category=1), date(2025, 6, 1))["amended_report"].state == "open"


def test_category_4_is_certified_monthly_30_days_after_the_end_of_the_month():
    incident = spill(category=4, started_at=local(2025, 1, 31, 22, 0))
    (d,) = deadlines(incident, date(2025, 3, 3))
    assert d.due == date(2025, 3, 2)
    assert d.counted_from == "the end of the month of the spill (2025-01-31)"
    assert d.state == "late"


def test_category_3_owes_nothing_the_pack_could_confirm():
    assert deadlines(spill(category=3), date(2025, 3, 3)) == []


def test_a_spill_imported_from_ciwqs_is_reported_there_already():
    incident = spill()
    incident.source = "ciwqs"
    assert {d.state for d in deadlines(incident, date(2026, 1, 1))} == {"in_ciwqs"}


def test_a_spill_without_a_category_owes_nothing_computed():
    assert deadlines(spill(category=None), date(2025, 3, 3)) == []

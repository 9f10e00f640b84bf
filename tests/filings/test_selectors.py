"""Reads of requests: the calendar's open deliveries, due and late; the annual report's count
of the year's requests by kind; an establishment's list with the petition's extended time."""

from datetime import date
from decimal import Decimal

import pytest

from fogkeeper.filings.selectors import establishment_filings, year_summary
from fogkeeper.filings.services import filing_decide, filing_deliver, filing_submit
from fogkeeper.reporting.annual import annual_report
from fogkeeper.web.enforcement.calendar import legal_calendar
from tests.filings import make_hearing
from tests.records import make_agency, make_device, make_establishment

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 1)


@pytest.fixture
def fse():
    return make_establishment(make_agency())


def _record(fse, filed_on):
    return filing_submit(
        establishment=fse,
        kind="record_of_proceedings",
        filed_on=filed_on,
        hearing=make_hearing(fse, code=f"H-{filed_on:%m%d}"),
        grounds="Petition",
        today=TODAY,
    )


def test_the_calendar_shows_a_delivery_due_with_its_section(fse):
    _record(fse, date(2026, 9, 10))  # due 2026-12-09
    cal = legal_calendar(agency=fse.agency, as_of=TODAY)
    [entry] = [e for e in cal.entries if e.kind == "request"]
    assert entry.day == date(2026, 12, 9) and not entry.overdue
    assert "13.30.090(D)" in entry.citation


def test_a_delivery_past_its_day_is_overdue_on_our_side(fse):
    _record(fse, date(2026, 8, 1))  # due 2026-10-30
    cal = legal_calendar(agency=fse.agency, as_of=TODAY)
    assert [e.day for e in cal.overdue if e.kind == "request"] == [date(2026, 10, 30)]


def test_a_delivered_record_leaves_the_calendar(fse):
    filing = _record(fse, date(2026, 9, 10))
    filing_deliver(filing=filing, delivered_on=TODAY, cost=Decimal("10"), today=TODAY)
    cal = legal_calendar(agency=fse.agency, as_of=TODAY)
    assert not [e for e in cal.entries if e.kind == "request"]


def test_the_year_counts_each_kind_with_its_answers_and_the_late(fse):
    late = _record(fse, date(2026, 8, 1))
    filing_deliver(filing=late, delivered_on=TODAY, cost=None, today=TODAY)
    schedule = filing_submit(
        establishment=fse,
        kind="revised_schedule",
        filed_on=TODAY,
        device=make_device(fse),
        frequency_days=120,
        grounds="g",
        today=TODAY,
    )
    filing_decide(filing=schedule, outcome="denied", decided_on=TODAY, reasons="r", today=TODAY)
    rows = {r.title: r for r in year_summary(agency=fse.agency, year=2026, as_of=TODAY)}
    record = rows["Request for the complete record of the proceedings"]
    assert (record.filed, record.outcomes, record.late) == (1, {"Delivered": 1}, 1)
    assert rows["Request for a revised cleaning or pumping schedule"].outcomes == {"Denied": 1}
    assert annual_report(agency=fse.agency, year=2026, today=TODAY)["requests"].value == 2


def test_a_pack_without_requests_reports_none():
    fse = make_establishment(make_agency("us-oh-aurora", name="Aurora"))
    report = annual_report(agency=fse.agency, year=2026, today=TODAY)
    assert "requests" not in [f.key for f in report.figures]


def test_the_list_gives_the_petitions_time_thirty_days_after_delivery(fse):
    filing = _record(fse, date(2026, 11, 1))
    filing_deliver(filing=filing, delivered_on=TODAY, cost=None, today=TODAY)
    [shown] = establishment_filings(establishment=fse)
    assert shown.review_until == date(2026, 12, 31)

"""The legal calendar's spill reports and sewer cleanings (/calendar/): the state's reports of
a spill due and late, linking to the incident, and the segment cleanings overdue, on the page
and in its exports. Each test builds its own agency (the module tests/web/enforcement/
test_calendar.py shares one world of cases among its tests)."""

from __future__ import annotations

import csv
import io

import icalendar
import pytest

from fogkeeper.web.enforcement.calendar import legal_calendar
from tests.records import d
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


def test_it_lists_the_spill_reports_due_and_late_linking_to_the_incident(client):
    from tests.web.reports.test_dashboard import overdue_segment, state_spill

    sc, _ = two_agencies()
    spill = state_spill(sc)
    segment = overdue_segment(sc)
    cal = legal_calendar(agency=sc, as_of=d("2025-06-10"))
    spills = [e for e in cal.entries if e.kind == "spill_report"]
    assert [(e.day, e.what, e.overdue) for e in spills] == [
        (d("2025-06-05"), "Draft Spill Report", True),
        (d("2025-06-17"), "Certified Spill Report", False),
    ]
    assert spills[0].citation == "Order WQ 2022-0103-DWQ Att. E1 §3.2.1"
    assert spills[0].href == f"/incidents/{spill.pk}/"
    (cleaning,) = [e for e in cal.entries if e.kind == "cleaning"]
    assert (cleaning.day, cleaning.overdue) == (d("2025-04-06"), True)
    assert cleaning.href == f"/registry/segments/{segment.pk}/"
    client.force_login(make_user("alice", sc))
    html = client.get("/calendar/?as_of=2025-06-10").content.decode()
    overdue = html.split('id="overdue"', 1)[1].split("</div>", 1)[0]
    assert f'<a href="/incidents/{spill.pk}/">' in overdue
    assert f'<a href="/registry/segments/{segment.pk}/">' in overdue


def test_its_exports_carry_the_spill_reports_and_the_cleanings(client):
    from tests.web.reports.test_dashboard import overdue_segment, state_spill

    sc, _ = two_agencies()
    spill = state_spill(sc)
    overdue_segment(sc)
    client.force_login(make_user("alice", sc))
    text = client.get("/calendar/calendar.csv?as_of=2025-06-10").content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    kinds = [(r["kind"], r["what"]) for r in rows]
    assert ("spill_report", "Draft Spill Report") in kinds
    assert ("cleaning", "Cleaning overdue") in kinds
    draft = next(r for r in rows if r["what"] == "Draft Spill Report")
    assert draft["url"].endswith(f"/incidents/{spill.pk}/") and draft["overdue"] == "yes"
    ics = icalendar.Calendar.from_ical(
        client.get("/calendar/calendar.ics?as_of=2025-06-10").content
    )
    summaries = [str(e["summary"]) for e in ics.walk("VEVENT")]
    assert "Overdue: Draft Spill Report: no establishment (Spill SSO-9)" in summaries
    assert any(
        s.startswith("Overdue: Cleaning overdue: Sewer segment MH-12-MH-13") for s in summaries
    )


def test_it_shows_only_the_spill_reports_when_asked(client):
    from tests.web.reports.test_dashboard import state_spill

    sc, _ = two_agencies()
    state_spill(sc)
    cal = legal_calendar(agency=sc, as_of=d("2025-06-10"), kinds=["spill_report"])
    assert {e.kind for e in cal.entries} == {"spill_report"}

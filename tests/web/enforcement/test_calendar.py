"""The clerk's legal calendar (/calendar/): entries of the open cases by day, the overdue on
the agency's side first, its filters, and its CSV and iCalendar exports.

The agencies and their cases are built once for the module (a transaction rolled back when it
ends, their writes left to the sweeps that end the building); each test runs in a savepoint of
it, so what a test writes is undone after it, and is given the agencies read again."""

from __future__ import annotations

import csv
import io

import icalendar
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogkeeper import reevaluation
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import EnforcementAction
from fogkeeper.enforcement.services import (
    action_fact_record,
    action_take,
    case_close,
    case_open,
    hearing_schedule,
    hearing_waive,
)
from fogkeeper.registry.models import Agency
from fogkeeper.web.enforcement.calendar import legal_calendar
from tests import databases
from tests.compliance.records import make_pier_taqueria
from tests.records import d, make_establishment
from tests.web.enforcement import closed_case, san_clemente_case, town_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

AS_OF = d("2025-06-06")


def harbor_grill_case(fse):
    """Case EC-8 of `fse`: a complaint AC-1 with no hearing set by its deadline (June 2), a
    complaint AC-2 whose hearing was waived in writing, an
    emergency suspension ES-1 heard on June 2 at 14:00 with no decision by its deadline 24
    hours later, and a manager's penalty order PO-1 on AC-2 served June 2 (final June 13, a lien
    from August 12)."""
    case = case_open(establishment=fse, code="EC-8", opened_on=d("2025-05-01"))
    action_take(
        case=case,
        type="administrative_complaint",
        code="AC-1",
        fields={"served_on": d("2025-05-01")},
        delivery="personal",
    )
    emergency = action_take(
        case=case,
        type="emergency_suspension",
        code="ES-1",
        fields={"ordered_at": "2025-06-01T09:00:00-07:00"},
        delivery="personal",
    )
    action_fact_record(
        action=emergency, field="hearing_concluded_at", value="2025-06-02T14:00:00-07:00"
    )
    waived = action_take(
        case=case,
        type="administrative_complaint",
        code="AC-2",
        fields={"served_on": d("2025-05-02")},
        delivery="personal",
    )
    hearing_waive(notice=waived, code="W-1", waived_on=d("2025-05-05"), waived_by="Harbor Grill")
    action_take(
        case=case,
        type="penalty_order",
        code="PO-1",
        delivery="personal",
        refers_to=waived,
        fields={
            "issued_by": "manager",
            "issued_on": d("2025-06-01"),
            "served_on": d("2025-06-02"),
            "amount": "1000",
            "class": "records",
            "days": 1,
        },
    )
    return case


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """San Clemente's cases EC-7 and EC-8 and the Town's EC-1, swept on June 6: the ids of
    the two agencies."""
    with databases.rolled_back(django_db_blocker, as_committed=True):
        with reevaluation.held():  # the sweeps evaluate every establishment written
            sc, town = two_agencies()
            san_clemente_case(make_pier_taqueria(sc))
            harbor_grill_case(make_establishment(sc, "FSE-0100", name="Harbor Grill"))
            town_case(make_pier_taqueria(town, code="T-0042"))
        sweep_agency(sc, as_of=AS_OF)
        sweep_agency(town, as_of=AS_OF)
        databases.check_constraints()
        yield sc.pk, town.pk


@pytest.fixture
def agencies(built, db):
    """San Clemente and the Town, read again for this test."""
    return tuple(Agency.objects.get(pk=pk) for pk in built)


@pytest.fixture
def clerk(client, agencies):
    client.force_login(make_user("carla", *agencies, role="clerk"))
    return client


def get(client, query: str = ""):
    return client.get(f"/calendar/?as_of=2025-06-06{query}")


def shown(response) -> list[tuple[str, str, str]]:
    return [(e.shown, e.action, e.name) for e in response.context["cal"].entries]


def test_it_lists_the_open_cases_dates_from_a_week_back_to_four_weeks_ahead(clerk):
    response = get(clerk)
    assert response.status_code == 200
    assert shown(response) == [
        ("2025-05-30", "SN-1", "hearing"),
        ("2025-06-02", "H-1", "hearing"),
        ("2025-06-02", "AC-1", "hearing"),
        ("2025-06-03 09:00", "ES-1", "hearing"),
        ("2025-06-03 14:00", "ES-1", "decision"),
        ("2025-06-12", "PO-1", "appeal"),
        ("2025-06-13", "PO-1", "final"),
        ("2025-06-16", "MD-1", "council_review_request"),
    ]  # the judicial review (July 14) and the lien (August 12) are beyond four weeks


def test_it_groups_the_entries_by_day_under_headings(clerk):
    response = get(clerk)
    assert [(day.isoformat(), len(items)) for day, items in response.context["days"]] == [
        ("2025-05-30", 1),
        ("2025-06-02", 2),
        ("2025-06-03", 2),
        ("2025-06-12", 1),
        ("2025-06-13", 1),
        ("2025-06-16", 1),
    ]
    html = response.content.decode()
    assert '<h2 id="day-2025-06-13">2025-06-13 (Friday)</h2>' in html
    assert '<h2 id="day-2025-06-06">' not in html


def test_each_entry_says_what_in_the_packs_words_with_its_case_and_citation(clerk):
    html = get(clerk).content.decode()
    assert "Final (takes effect): Order imposing administrative civil penalties PO-1" in html
    assert '<a href="/cases/FSE-0100/EC-8/">Harbor Grill (FSE-0100), case EC-8</a>' in html
    assert "<td>13.30.080(I)(6)</td>" in html
    assert "Hearing on Notice of suspension of the Discharge Permit SN-1: Hearing H-1" in html


def test_it_shows_an_emergency_deadline_with_its_hour(clerk):
    entry = get(clerk).context["cal"].entries[4]
    assert entry.at.isoformat() == "2025-06-03T14:00:00-07:00"
    assert entry.shown == "2025-06-03 14:00"


def test_it_lists_first_the_hearing_and_the_decision_overdue_on_the_agencys_side(clerk):
    response = get(clerk)
    overdue = response.context["cal"].overdue
    assert [(e.action, e.name, e.why) for e in overdue] == [
        ("AC-1", "hearing", "No hearing on AC-1 was set by 2025-06-02."),
        ("ES-1", "decision", "No decision on ES-1 was recorded by 2025-06-03 14:00."),
    ]
    html = response.content.decode()
    summary = html.split('class="usa-alert usa-alert--warning" id="overdue"', 1)[1]
    assert summary.index("AC-1") < summary.index("ES-1") < summary.index("day-2025-05-30")


def test_a_hearing_deadline_met_and_an_appeal_deadline_passed_are_not_overdue(clerk):
    entries = {(e.action, e.name): e for e in get(clerk).context["cal"].entries}
    assert not entries["ES-1", "hearing"].overdue  # heard on June 2, inside 48 hours
    assert not entries["SN-1", "hearing"].overdue


def test_a_decision_recorded_ends_the_overdue_mark(clerk, agencies):
    emergency = EnforcementAction.objects.get(code="ES-1")
    action_take(
        case=emergency.case,
        type="emergency_decision",
        code="ED-1",
        refers_to=emergency,
        fields={"delivered_on": d("2025-06-03")},
        delivery="personal",
    )
    sweep_agency(agencies[0], as_of=AS_OF)
    assert [e.action for e in get(clerk).context["cal"].overdue] == ["AC-1"]


def test_a_hearing_set_in_its_window_ends_the_overdue_mark(clerk, agencies):
    complaint = EnforcementAction.objects.get(code="AC-1", establishment__code="FSE-0100")
    hearing_schedule(
        notice=complaint, code="H-2", hearing_on=d("2025-05-30"), noticed_on=d("2025-05-10")
    )
    cal = get(clerk).context["cal"]
    assert [e.action for e in cal.overdue] == ["ES-1"]
    assert ("2025-05-30", "H-2", "hearing") in [(e.shown, e.action, e.name) for e in cal.entries]


def test_it_looks_further_ahead_with_weeks(clerk):
    assert shown(get(clerk, "&weeks=10"))[-2:] == [
        ("2025-07-14", "PO-1", "judicial_review"),
        ("2025-08-12", "PO-1", "lien_eligible"),
    ]


@pytest.mark.parametrize(
    ("query", "codes"),
    [
        ("&kind=hearing", [("H-1", "hearing")]),
        ("&kind=final&kind=lien&weeks=10", [("PO-1", "final"), ("PO-1", "lien_eligible")]),
        ("&kind=overdue", [("AC-1", "hearing"), ("ES-1", "decision")]),
    ],
)
def test_it_filters_by_kind(clerk, query, codes):
    response = get(clerk, query)
    assert [(e.action, e.name) for e in response.context["cal"].entries] == codes
    kind = query.split("kind=")[1].split("&")[0]
    assert f'id="kind-{kind}" name="kind" value="{kind}" checked' in response.content.decode()


@pytest.mark.parametrize("weeks", ["abc", "0", "27", "-3"])
def test_a_bad_weeks_value_is_said_on_the_page(clerk, weeks):
    response = get(clerk, f"&weeks={weeks}")
    assert response.status_code == 400
    html = response.content.decode()
    assert "usa-form-group--error" in html
    assert "Weeks ahead:" in html
    assert response.context["cal"].weeks == 4  # the default shown instead


def test_an_unknown_kind_is_said_on_the_page(clerk):
    response = get(clerk, "&kind=party")
    assert response.status_code == 400
    assert "Show: party is not a kind of entry." in response.content.decode()


def test_it_never_shows_another_agencys_cases(client, agencies):
    client.force_login(make_user("tom", agencies[1], role="clerk"))
    response = client.get("/calendar/?as_of=2025-03-06")
    cal = response.context["cal"]
    assert {e.establishment for e in cal.entries} == {"T-0042"}
    assert "Harbor Grill" not in response.content.decode()
    assert "FSE-0042" not in response.content.decode()


def test_a_case_closed_is_no_longer_on_the_calendar(clerk, agencies):
    closed_case(make_establishment(agencies[0], "FSE-0200", name="Pier Pizza"))
    sweep_agency(agencies[0], as_of=AS_OF)
    open_ = clerk.get("/calendar/?as_of=2025-01-10&weeks=1").context["cal"].entries
    assert [(e.case, e.action, e.shown) for e in open_] == [("EC-2", "NNC-2", "2025-01-13")]
    closed = clerk.get("/calendar/?as_of=2025-01-16&weeks=1").context["cal"].entries
    assert closed == []  # its appeal deadline passed three days before, inside the past week


def test_it_exports_the_entries_as_icalendar(clerk):
    response = clerk.get("/calendar/calendar.ics?as_of=2025-06-06&kind=hearing&kind=overdue")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert "san-clemente-legal-calendar-2025-06-06.ics" in response["Content-Disposition"]
    parsed = icalendar.Calendar.from_ical(response.content)
    events = {str(e["UID"]): e for e in parsed.walk("VEVENT")}
    assert sorted(events) == [
        "san-clemente-FSE-0042-H-1-hearing-hearing@fogkeeper",
        "san-clemente-FSE-0100-AC-1-hearing-deadline@fogkeeper",
        "san-clemente-FSE-0100-ES-1-decision-deadline@fogkeeper",
    ]
    hearing = events["san-clemente-FSE-0042-H-1-hearing-hearing@fogkeeper"]
    assert hearing.decoded("DTSTART") == d("2025-06-02")
    assert hearing["DTSTART"].params["VALUE"] == "DATE"
    assert "Pier Taqueria" in str(hearing["SUMMARY"])
    assert "Citation: 13.30.080(G)(2)" in str(hearing["DESCRIPTION"])
    assert "http://testserver/cases/FSE-0042/EC-7/" in str(hearing["DESCRIPTION"])
    assert hearing["CATEGORIES"].cats == ["hearing"]


def test_an_hour_deadline_is_exported_at_its_hour_in_the_packs_time_zone(clerk):
    response = clerk.get("/calendar/calendar.ics?as_of=2025-06-06&kind=overdue")
    parsed = icalendar.Calendar.from_ical(response.content)
    decision = next(
        e for e in parsed.walk("VEVENT") if str(e["UID"]).startswith("san-clemente-FSE-0100-ES-1")
    )
    assert decision["DTSTART"].params["TZID"] == "America/Los_Angeles"
    assert decision.decoded("DTSTART").isoformat() == "2025-06-03T14:00:00-07:00"
    assert sorted(decision["CATEGORIES"].cats) == ["deadline", "overdue"]
    assert str(decision["SUMMARY"]).startswith("Overdue: Decision (deadline)")
    assert [tz["TZID"] for tz in parsed.walk("VTIMEZONE")] == ["America/Los_Angeles"]


def test_it_exports_the_same_entries_as_csv(clerk):
    response = clerk.get("/calendar/calendar.csv?as_of=2025-06-06&weeks=10&kind=lien")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert rows == [
        {
            "date": "2025-08-12",
            "time": "",
            "kind": "lien",
            "overdue": "",
            "what": "Lien eligible (takes effect)",
            "action": "PO-1",
            "action_title": "Order imposing administrative civil penalties",
            "establishment": "FSE-0100",
            "establishment_name": "Harbor Grill",
            "case": "EC-8",
            "citation": "13.30.080(I)(9)",
            "why": "",
            "url": "http://testserver/cases/FSE-0100/EC-8/",
        }
    ]


def test_the_csv_keeps_a_spreadsheet_from_running_a_name_as_a_formula(client, agencies):
    fse = make_establishment(agencies[0], "FSE-0300", name='=HYPERLINK("http://x")')
    case = case_open(establishment=fse, code="EC-9", opened_on=d("2025-06-01"))
    action_take(
        case=case,
        type="administrative_complaint",
        code="AC-9",
        fields={"served_on": d("2025-06-01")},
        delivery="personal",
    )
    sweep_agency(agencies[0], as_of=AS_OF)
    client.force_login(make_user("carla", agencies[0], role="clerk"))
    response = client.get("/calendar/calendar.csv?as_of=2025-06-06&weeks=6")
    rows = [r for r in csv.DictReader(io.StringIO(response.content.decode()))]
    assert {r["establishment_name"] for r in rows if r["case"] == "EC-9"} == {
        '\'=HYPERLINK("http://x")'
    }


def test_the_exports_refuse_a_bad_weeks_value_in_words(clerk):
    response = clerk.get("/calendar/calendar.ics?weeks=100")
    assert response.status_code == 400
    assert "Weeks ahead: at most 26 weeks" in response.content.decode()


def test_it_changes_nothing_when_posted_to(clerk):
    before = EnforcementAction.objects.count()
    assert clerk.post("/calendar/").status_code == 405
    assert EnforcementAction.objects.count() == before


def test_it_reads_in_the_same_number_of_queries_however_many_cases(agencies):
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            legal_calendar(agency=agencies[0], as_of=AS_OF)
        return len(queries)

    before = count()
    harbor_grill_case(make_establishment(agencies[0], "FSE-0101", name="Harbor Grill Two"))
    sweep_agency(agencies[0], as_of=AS_OF)
    assert count() == before


def test_a_case_the_manager_closed_leaves_the_calendar(agencies):
    case = EnforcementAction.objects.get(code="ES-1").case
    before = {e.case for e in legal_calendar(agency=agencies[0], as_of=AS_OF).entries}

    case_close(case=case, code="CL-1", closed_on=d("2025-06-05"), reason="withdrawn")

    after = {e.case for e in legal_calendar(agency=agencies[0], as_of=AS_OF).entries}
    assert "EC-8" in before and "EC-8" not in after


def test_it_lists_a_compliance_schedules_milestones_with_what_must_be_done(clerk, agencies):
    case = EnforcementAction.objects.get(code="MD-1").case  # Pier Taqueria's open case EC-7
    schedule = action_take(
        case=case,
        type="compliance_schedule",
        code="CS-1",
        delivery="personal",
        fields={
            "entered_on": d("2025-05-20"),
            "milestones": [
                {"id": "M-1", "due": d("2025-06-04"), "what": "Pump out GI-1."},
                {"id": "M-2", "due": d("2025-06-20"), "what": "Install a sample box."},
            ],
        },
    )
    action_fact_record(action=schedule, field="milestones.M-1.met_on", value=d("2025-06-03"))

    response = get(clerk)

    entries = [(e.shown, e.action, e.what) for e in response.context["cal"].entries]
    assert ("2025-06-04", "CS-1", "Milestone M-1: Pump out GI-1. (met 2025-06-03)") in entries
    assert ("2025-06-20", "CS-1", "Milestone M-2: Install a sample box.") in entries
    assert "Milestone M-2: Install a sample box.: Compliance schedule order or agreement CS-1" in (
        response.content.decode()
    )
    assert "CS-1" not in [e.action for e in response.context["cal"].overdue]

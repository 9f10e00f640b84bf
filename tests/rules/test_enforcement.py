"""Enforcement actions: deadlines, accruals and defects (RULES.md section 10)."""

from datetime import date, datetime
from decimal import Decimal

import pytest

from fogkeeper.rules.errors import CaseFileError

from .builders import d, deadline, evaluate_case, found, one, sc_case, town_case


def action(id, type, **fields):
    return {"id": id, "type": type, **fields}


def sc_actions(*actions, as_of="2025-12-31", **changes):
    return evaluate_case(sc_case(enforcement=list(actions), **changes), as_of=as_of)


def town_actions(*actions, as_of="2025-12-31", **changes):
    return evaluate_case(town_case(enforcement=list(actions), **changes), as_of=as_of)


def named(report, action_id):
    return sorted((x.name, x.kind) for x in report.deadlines if x.action == action_id)


def accruals(report, action_id):
    return [a for a in report.accruals if a.action == action_id]


def defects(report):
    return [f for f in report.findings if f.rule.startswith(("enforcement.", "fees."))]


def notice(delivered_on="2025-03-06", correct_by="2025-03-31", **fields):
    return action(
        "N-1",
        "notice_of_noncompliance",
        delivered_on=delivered_on,
        correct_by=correct_by,
        **fields,
    )


def order(cls="records", unit="days", quantity=1, amount=100, **fields):
    fields = {"issued_by": "council", "issued_on": "2025-04-01", "served_on": "2025-04-02"} | fields
    return action("P-1", "penalty_order", amount=amount, **{"class": cls, unit: quantity}, **fields)


def manager_order(served_on="2025-03-03", **fields):
    return order(issued_by="manager", issued_on="2025-03-01", served_on=served_on, **fields)


def schedule(balance_due=0, payment_arrangement=False, milestones=(), **fields):
    return action(
        "CS-1",
        "compliance_schedule",
        entered_on=fields.pop("entered_on", "2025-02-01"),
        balance_due=balance_due,
        payment_arrangement=payment_arrangement,
        milestones=list(milestones),
        **fields,
    )


def milestone(due="2025-05-01", **fields):
    return {"id": "M-1", "due": due, **fields}


def invoice(noticed_on="2025-02-06", **fields):
    return action("INV-1", "invoice", noticed_on=noticed_on, amount=428, **fields)


# San Clemente: notice_of_noncompliance, appeal deadline (delivered + 10 days, rolls)


def test_it_sets_the_sc_notice_appeal_ten_days_after_delivery():
    report = sc_actions(notice(delivered_on="2025-03-03"))
    assert deadline(report, "N-1", "appeal") == d("2025-03-13")
    assert [x.citation for x in report.deadlines if x.action == "N-1"] == ["13.30.080(D)(1)"]


def test_it_rolls_the_sc_notice_appeal_from_a_sunday_to_monday():
    report = sc_actions(notice(delivered_on="2025-03-06"))
    assert deadline(report, "N-1", "appeal") == d("2025-03-17")


def test_it_rolls_the_sc_notice_appeal_past_memorial_day():
    report = sc_actions(notice(delivered_on="2025-05-16", correct_by="2025-06-16"))
    assert deadline(report, "N-1", "appeal") == d("2025-05-27")


def test_it_rolls_the_sc_notice_appeal_over_a_weekend_and_mlk_day():
    report = sc_actions(notice(delivered_on="2025-01-08", correct_by="2025-02-08"))
    assert deadline(report, "N-1", "appeal") == d("2025-01-21")


def test_it_rolls_the_sc_notice_appeal_past_cesar_chavez_day():
    report = sc_actions(notice(delivered_on="2025-03-21", correct_by="2025-04-21"))
    assert deadline(report, "N-1", "appeal") == d("2025-04-01")


def test_it_rolls_the_sc_notice_appeal_past_july_4_observed_on_a_friday():
    report = sc_actions(
        notice(delivered_on="2026-06-23", correct_by="2026-07-23"), as_of="2026-07-31"
    )
    assert deadline(report, "N-1", "appeal") == d("2026-07-06")


# San Clemente: enforcement.daily_fine accrual


def test_it_accrues_600_dollars_a_day_after_the_correction_date():
    (fine,) = accruals(sc_actions(notice(), as_of="2025-04-10"), "N-1")
    assert fine.rule == "enforcement.daily_fine"
    assert (fine.days, fine.rate, fine.amount) == (10, Decimal(600), Decimal(6000))
    assert fine.citation == "13.30.080(E)(3)"


def test_it_accrues_nothing_on_the_correction_date():
    assert accruals(sc_actions(notice(), as_of="2025-03-31"), "N-1") == []


def test_it_accrues_one_day_the_day_after_the_correction_date():
    (fine,) = accruals(sc_actions(notice(), as_of="2025-04-01"), "N-1")
    assert (fine.days, fine.amount) == (1, Decimal(600))


def test_it_accrues_nothing_when_corrected_on_the_correction_date():
    report = sc_actions(notice(corrected_on="2025-03-31"), as_of="2025-04-10")
    assert accruals(report, "N-1") == []


def test_it_lists_no_accrual_when_corrected_the_day_after_the_correction_date():
    report = sc_actions(notice(corrected_on="2025-04-01"), as_of="2025-04-10")
    assert accruals(report, "N-1") == []


def test_it_stops_the_fine_the_day_before_the_correction():
    report = sc_actions(notice(corrected_on="2025-04-02"), as_of="2025-04-10")
    (fine,) = accruals(report, "N-1")
    assert (fine.days, fine.amount) == (1, Decimal(600))


def test_it_accrues_through_as_of_when_the_correction_is_dated_after_it():
    report = sc_actions(notice(corrected_on="2025-04-20"), as_of="2025-04-10")
    (fine,) = accruals(report, "N-1")
    assert (fine.days, fine.amount) == (10, Decimal(6000))


def test_it_accrues_nothing_before_a_correction_date_still_to_come():
    report = sc_actions(notice(correct_by="2025-07-15"), as_of="2025-06-30")
    assert accruals(report, "N-1") == []
    assert defects(report) == []


def test_it_makes_no_finding_of_a_passed_appeal_deadline():
    report = sc_actions(notice(corrected_on="2025-03-20"), as_of="2025-06-30")
    assert deadline(report, "N-1", "appeal") == d("2025-03-17")
    assert defects(report) == []


# San Clemente: manager_decision


def test_it_sets_the_council_review_request_ten_days_after_a_manager_decision():
    report = sc_actions(action("MD-1", "manager_decision", delivered_on="2025-06-20"))
    assert deadline(report, "MD-1", "council_review_request") == d("2025-06-30")
    assert report.deadlines[0].citation == "13.30.080(D)(2)"


def test_it_rolls_the_council_review_request_from_a_sunday():
    report = sc_actions(action("MD-1", "manager_decision", delivered_on="2025-05-29"))
    assert deadline(report, "MD-1", "council_review_request") == d("2025-06-09")


def test_it_rolls_the_council_review_request_past_veterans_day():
    report = sc_actions(action("MD-1", "manager_decision", delivered_on="2025-11-01"))
    assert deadline(report, "MD-1", "council_review_request") == d("2025-11-12")


# San Clemente: suspension_notice / revocation_notice


@pytest.mark.parametrize("kind", ["suspension_notice", "revocation_notice"])
def test_it_sets_the_earliest_sc_hearing_ten_days_after_mailing_without_rolling(kind):
    report = sc_actions(action("S-1", kind, mailed_on="2025-05-01"))
    assert deadline(report, "S-1", "hearing", kind="earliest") == d("2025-05-11")
    assert named(report, "S-1") == [("hearing", "earliest")]
    assert report.deadlines[0].citation == "13.30.080(G)(2)"


@pytest.mark.parametrize("kind", ["suspension_notice", "revocation_notice"])
def test_it_flags_an_sc_hearing_set_the_day_before_the_earliest_date(kind):
    report = sc_actions(action("S-1", kind, mailed_on="2025-05-01", hearing_on="2025-05-10"))
    f = one(report, "enforcement.hearing_date_invalid", "S-1")
    assert f.severity == "task"
    assert f.open
    assert f.citation == "13.30.080(G)(2)"


@pytest.mark.parametrize("hearing_on", ["2025-05-11", "2025-05-12", "2025-12-01"])
def test_it_accepts_an_sc_hearing_on_or_after_the_earliest_date(hearing_on):
    report = sc_actions(
        action("S-1", "suspension_notice", mailed_on="2025-05-01", hearing_on=hearing_on)
    )
    assert found(report, "enforcement.hearing_date_invalid") == []


def test_it_checks_an_sc_hearing_planned_after_as_of():
    hearing = action("S-1", "suspension_notice", mailed_on="2025-06-25", hearing_on="2025-07-02")
    report = sc_actions(hearing, as_of="2025-06-30")
    assert one(report, "enforcement.hearing_date_invalid", "S-1").severity == "task"


def test_it_sets_no_sc_decision_deadline_after_a_suspension_hearing():
    notice_ = action(
        "S-1",
        "suspension_notice",
        mailed_on="2025-05-01",
        hearing_on="2025-05-15",
        hearing_concluded_on="2025-05-15",
    )
    assert named(sc_actions(notice_), "S-1") == [("hearing", "earliest")]


# San Clemente: emergency_suspension (48 and 24 hours, never roll)


def test_it_sets_the_sc_emergency_hearing_48_hours_after_the_order_as_a_datetime():
    order_ = action("E-1", "emergency_suspension", ordered_at="2025-06-24T09:30:00")
    when = deadline(sc_actions(order_), "E-1", "hearing")
    assert isinstance(when, datetime)
    assert when == datetime(2025, 6, 26, 9, 30)


def test_it_does_not_roll_the_sc_emergency_hearing_off_a_sunday():
    order_ = action("E-1", "emergency_suspension", ordered_at="2025-06-27T09:30:00")
    report = sc_actions(order_)
    assert deadline(report, "E-1", "hearing") == datetime(2025, 6, 29, 9, 30)
    assert report.deadlines[0].citation == "13.30.080(H)(3)"


def test_it_sets_the_sc_emergency_decision_24_hours_after_the_hearing_even_on_a_holiday():
    order_ = action(
        "E-1",
        "emergency_suspension",
        ordered_at="2025-07-01T09:30:00",
        hearing_concluded_at="2025-07-03T16:00:00",
    )
    assert deadline(sc_actions(order_), "E-1", "decision") == datetime(2025, 7, 4, 16, 0)


def test_it_prints_sc_emergency_deadlines_as_iso_datetimes_without_an_offset():
    order_ = action("E-1", "emergency_suspension", ordered_at="2025-07-01T10:00:00")
    printed = sc_actions(order_).to_dict()["deadlines"]
    assert [x["date"] for x in printed if x["action"] == "E-1"] == ["2025-07-03T10:00:00"]


def test_it_sets_no_sc_emergency_decision_before_the_hearing_concludes():
    order_ = action(
        "E-1",
        "emergency_suspension",
        ordered_at="2025-06-27T09:30:00",
        hearing_concluded_at="2025-07-01T16:00:00",
    )
    assert named(sc_actions(order_, as_of="2025-06-30"), "E-1") == [("hearing", "deadline")]


# San Clemente: emergency_decision (2 business days)


def test_it_sets_the_city_manager_appeal_two_business_days_after_delivery():
    report = sc_actions(action("ED-1", "emergency_decision", delivered_on="2025-06-05"))
    assert deadline(report, "ED-1", "city_manager_appeal") == d("2025-06-09")
    assert report.deadlines[0].citation == "13.30.080(H)(4)"


def test_it_skips_independence_day_when_counting_the_city_manager_appeal():
    report = sc_actions(action("ED-1", "emergency_decision", delivered_on="2025-07-02"))
    assert deadline(report, "ED-1", "city_manager_appeal") == d("2025-07-07")


def test_it_skips_thanksgiving_and_the_day_after_when_counting_the_city_manager_appeal():
    report = sc_actions(action("ED-1", "emergency_decision", delivered_on="2025-11-26"))
    assert deadline(report, "ED-1", "city_manager_appeal") == d("2025-12-02")


def test_it_does_not_count_a_saturday_delivery_day():
    report = sc_actions(action("ED-1", "emergency_decision", delivered_on="2025-06-07"))
    assert deadline(report, "ED-1", "city_manager_appeal") == d("2025-06-10")


def test_an_appeal_to_the_city_manager_sets_the_presentation_four_days_after_it():
    decision = action(
        "ED-1", "emergency_decision", delivered_on="2025-06-05", appealed_on="2025-06-06"
    )
    report = sc_actions(decision)
    assert deadline(report, "ED-1", "city_manager_presentation") == d("2025-06-10")
    cited = {x.name: x.citation for x in report.deadlines if x.action == "ED-1"}
    assert cited["city_manager_presentation"] == "13.30.080(H)(4)"


def test_the_city_manager_decides_within_two_days_of_the_hearing_on_the_appeal():
    decision = action(
        "ED-1",
        "emergency_decision",
        delivered_on="2025-06-05",
        appealed_on="2025-06-06",
        city_manager_hearing_concluded_on="2025-06-09",
    )
    assert deadline(sc_actions(decision), "ED-1", "city_manager_decision") == d("2025-06-11")


def test_an_appeal_that_suspends_nothing_sets_no_final_date_and_no_dates_before_it():
    """An `appeal:` without `final` (the emergency decision's): no final event, and the
    dates that run from the appeal wait for it."""
    report = sc_actions(action("ED-1", "emergency_decision", delivered_on="2025-06-05"))
    assert named(report, "ED-1") == [("city_manager_appeal", "deadline")]


def test_the_city_manager_decision_opens_judicial_review():
    report = sc_actions(action("CM-1", "city_manager_decision", delivered_on="2025-06-12"))
    assert deadline(report, "CM-1", "judicial_review") == d("2025-09-10")


# San Clemente: administrative_complaint (served + 30 days, rolls)


def test_it_sets_the_sc_complaint_hearing_thirty_days_after_service():
    report = sc_actions(action("AC-1", "administrative_complaint", served_on="2025-05-05"))
    assert deadline(report, "AC-1", "hearing") == d("2025-06-04")
    assert report.deadlines[0].citation == "13.30.080(I)(4)(a)"


def test_it_rolls_the_sc_complaint_hearing_from_a_saturday():
    report = sc_actions(action("AC-1", "administrative_complaint", served_on="2025-05-08"))
    assert deadline(report, "AC-1", "hearing") == d("2025-06-09")


def test_it_rolls_the_sc_complaint_hearing_past_independence_day():
    report = sc_actions(action("AC-1", "administrative_complaint", served_on="2025-06-04"))
    assert deadline(report, "AC-1", "hearing") == d("2025-07-07")


# San Clemente: penalty_order


def test_it_makes_a_manager_order_final_eleven_days_after_service():
    report = sc_actions(manager_order())
    assert deadline(report, "P-1", "final", kind="event") == d("2025-03-14")
    assert deadline(report, "P-1", "judicial_review") == d("2025-04-14")
    assert deadline(report, "P-1", "lien_eligible", kind="event") == d("2025-05-13")


def test_it_cites_each_deadline_of_an_sc_penalty_order():
    report = sc_actions(manager_order())
    assert sorted((x.name, x.citation) for x in report.deadlines) == [
        ("appeal", "13.30.080(I)(6), (D)(2)"),
        ("final", "13.30.080(I)(6)"),
        ("judicial_review", "13.30.090(F)"),
        ("lien_eligible", "13.30.080(I)(9)"),
    ]


def test_it_makes_a_council_order_final_on_issuance():
    report = sc_actions(order(issued_by="council", issued_on="2025-04-01", served_on="2025-04-02"))
    assert deadline(report, "P-1", "final", kind="event") == d("2025-04-01")
    assert deadline(report, "P-1", "judicial_review") == d("2025-05-01")
    assert [x.citation for x in report.deadlines if x.name == "final"] == ["13.30.080(I)(7)"]


def test_it_does_not_roll_the_lien_event_off_a_saturday():
    report = sc_actions(order(issued_on="2025-04-01"))
    assert deadline(report, "P-1", "lien_eligible", kind="event") == d("2025-05-31")


def test_it_does_not_roll_the_final_event_off_a_sunday():
    report = sc_actions(manager_order(served_on="2025-03-05"))
    assert deadline(report, "P-1", "final", kind="event") == d("2025-03-16")
    assert deadline(report, "P-1", "judicial_review") == d("2025-04-15")


def test_it_sets_no_final_date_for_a_manager_order_not_yet_served():
    pending = manager_order(served_on="2025-07-01")
    assert named(sc_actions(pending, as_of="2025-06-30"), "P-1") == []


def test_it_lists_the_sc_lien_date_for_an_unpaid_order():
    report = sc_actions(manager_order(), as_of="2025-06-30")
    assert deadline(report, "P-1", "lien_eligible", kind="event") == d("2025-05-13")


@pytest.mark.parametrize("paid_on", ["2025-05-12", "2025-05-13"])
def test_it_drops_the_sc_lien_date_when_paid_on_or_before_it(paid_on):
    report = sc_actions(manager_order(paid_on=paid_on), as_of="2025-06-30")
    assert ("lien_eligible", "event") not in named(report, "P-1")
    assert deadline(report, "P-1", "judicial_review") == d("2025-04-14")


def test_it_lists_the_sc_lien_date_when_paid_the_day_after_it():
    report = sc_actions(manager_order(paid_on="2025-05-14"), as_of="2025-06-30")
    assert deadline(report, "P-1", "lien_eligible", kind="event") == d("2025-05-13")


def test_it_lists_the_sc_lien_date_when_the_payment_is_dated_after_as_of():
    report = sc_actions(manager_order(paid_on="2025-05-10"), as_of="2025-05-09")
    assert deadline(report, "P-1", "lien_eligible", kind="event") == d("2025-05-13")


# enforcement.penalty_over_cap: every class of each pack

SC_CAPS = [
    ("records", "days", 2000),
    ("schedule", "days", 3000),
    ("permit", "days", 5000),
    ("discharge_under_order", "gallons", 10),
]

TOWN_CAPS = [
    ("no_permit", "days", 1000),
    ("records", "days", 2000),
    ("schedule", "days", 3000),
    ("overflow", "occurrences", 5000),
    ("overflow_under_order", "occurrences", 10000),
]


@pytest.mark.parametrize("actions", [lambda o: sc_actions(o), lambda o: town_actions(o)])
def test_it_refuses_a_penalty_order_in_the_court_class(actions):
    # RULES.md 11.3: `judicial` penalties are imposed by a court, not by an order
    with pytest.raises(CaseFileError) as err:
        actions(order("judicial", "days", 1, amount=25000))
    assert "enforcement[0].class" in str(err.value)
    assert "court" in str(err.value)


@pytest.mark.parametrize("cls,unit,cap", SC_CAPS)
def test_it_accepts_an_sc_penalty_equal_to_its_cap(cls, unit, cap):
    report = sc_actions(order(cls, unit, 3, amount=3 * cap))
    assert found(report, "enforcement.penalty_over_cap") == []


@pytest.mark.parametrize("cls,unit,cap", SC_CAPS)
def test_it_flags_an_sc_penalty_a_cent_above_its_cap(cls, unit, cap):
    report = sc_actions(order(cls, unit, 3, amount=3 * cap + 0.01))
    f = one(report, "enforcement.penalty_over_cap", "P-1")
    assert (f.severity, f.open) == ("task", True)
    assert f.evidence["cap"] == Decimal(3 * cap)
    assert f.citation == "13.30.080(I)(4)(c)"


@pytest.mark.parametrize("cls,unit,cap", TOWN_CAPS)
def test_it_accepts_a_town_penalty_equal_to_its_cap(cls, unit, cap):
    report = town_actions(order(cls, unit, 3, amount=3 * cap))
    assert found(report, "enforcement.penalty_over_cap") == []


@pytest.mark.parametrize("cls,unit,cap", TOWN_CAPS)
def test_it_flags_a_town_penalty_a_cent_above_its_cap(cls, unit, cap):
    report = town_actions(order(cls, unit, 3, amount=3 * cap + 0.01))
    f = one(report, "enforcement.penalty_over_cap", "P-1")
    assert (f.severity, f.open) == ("task", True)
    assert f.evidence["cap"] == Decimal(3 * cap)
    assert f.citation == "10.02.330(D)"


@pytest.mark.parametrize("cls,unit", [("overflow", "occurrences"), ("no_permit", "days")])
def test_it_rejects_a_town_penalty_class_in_san_clemente(cls, unit):
    with pytest.raises(CaseFileError, match="not a penalty class of san-clemente"):
        sc_actions(order(cls, unit, 1))


def test_it_rejects_an_sc_penalty_class_in_the_town():
    with pytest.raises(CaseFileError, match="not a penalty class of town-10-02"):
        town_actions(order("discharge_under_order", "gallons", 1))


def test_it_rejects_a_quantity_in_another_unit_than_the_cap():
    with pytest.raises(CaseFileError, match="counted in days"):
        sc_actions(order("records", "gallons", 3))


# enforcement.schedule_precondition


def test_it_accepts_an_sc_schedule_under_a_payment_arrangement():
    report = sc_actions(schedule(balance_due=500, payment_arrangement=True))
    assert found(report, "enforcement.schedule_precondition") == []


def test_it_flags_an_sc_schedule_entered_while_money_is_owed_without_an_arrangement():
    report = sc_actions(schedule(balance_due=500, payment_arrangement=False))
    f = one(report, "enforcement.schedule_precondition", "CS-1")
    assert (f.severity, f.open, f.since) == ("task", True, d("2025-02-01"))
    assert f.citation == "13.30.080(F)(2)"


def test_it_flags_a_town_schedule_entered_while_money_is_owed_even_with_an_arrangement():
    report = town_actions(schedule(balance_due=100, payment_arrangement=True))
    f = one(report, "enforcement.schedule_precondition", "CS-1")
    assert f.severity == "task"
    assert f.citation == "10.02.160(C), (D)"


def test_it_flags_a_town_schedule_entered_while_money_is_owed_without_an_arrangement():
    report = town_actions(schedule(balance_due=100, payment_arrangement=False))
    assert one(report, "enforcement.schedule_precondition", "CS-1").open


def test_it_accepts_an_sc_schedule_with_nothing_owed():
    report = sc_actions(schedule(balance_due=0, payment_arrangement=False))
    assert found(report, "enforcement.schedule_precondition") == []


def test_it_accepts_a_town_schedule_with_nothing_owed():
    report = town_actions(schedule(balance_due=0, payment_arrangement=False))
    assert found(report, "enforcement.schedule_precondition") == []


# enforcement.schedule_missed


def test_it_raises_no_missed_milestone_on_its_due_date():
    report = sc_actions(schedule(milestones=[milestone()]), as_of="2025-05-01")
    assert found(report, "enforcement.schedule_missed") == []


def test_it_opens_a_missed_milestone_the_day_after_its_due_date():
    report = sc_actions(schedule(milestones=[milestone()]), as_of="2025-05-02")
    f = one(report, "enforcement.schedule_missed", "CS-1")
    assert (f.severity, f.open, f.since) == ("violation", True, d("2025-05-02"))
    assert f.citation == "13.30.080(F)(2)"
    assert report.status == "non_compliant"


def test_it_accepts_a_milestone_met_on_its_due_date():
    report = sc_actions(schedule(milestones=[milestone(met_on="2025-05-01")]))
    assert found(report, "enforcement.schedule_missed") == []


def test_it_closes_a_milestone_met_the_day_after_its_due_date():
    report = sc_actions(schedule(milestones=[milestone(met_on="2025-05-02")]))
    f = one(report, "enforcement.schedule_missed", "CS-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-05-02"), d("2025-05-02"))


def test_it_closes_a_milestone_met_late_on_the_day_it_was_met():
    report = town_actions(schedule(milestones=[milestone(met_on="2025-06-10")]))
    f = one(report, "enforcement.schedule_missed", "CS-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-05-02"), d("2025-06-10"))
    assert f.citation == "10.02.160(C), (D)"


def test_it_keeps_a_milestone_open_when_met_after_as_of():
    report = sc_actions(schedule(milestones=[milestone(met_on="2025-07-10")]), as_of="2025-06-30")
    assert one(report, "enforcement.schedule_missed", "CS-1").open


def test_it_raises_a_finding_per_missed_milestone():
    stones = [milestone(id="M-1", due="2025-03-01", met_on="2025-03-05"), milestone(id="M-2")]
    report = sc_actions(schedule(milestones=stones), as_of="2025-06-30")
    missed = found(report, "enforcement.schedule_missed", "CS-1")
    assert sorted((f.since, f.open) for f in missed) == [
        (d("2025-03-02"), False),
        (d("2025-05-02"), True),
    ]


# San Clemente: final_decision (90 days, or record delivered + 30)


def test_it_sets_judicial_review_ninety_days_after_a_final_decision():
    report = sc_actions(action("FD-1", "final_decision", final_on="2025-01-10"))
    assert deadline(report, "FD-1", "judicial_review") == d("2025-04-10")
    assert report.deadlines[0].citation.startswith("13.30.090(C), (E)")


def test_it_rolls_judicial_review_of_a_final_decision_past_mlk_day():
    report = sc_actions(action("FD-1", "final_decision", final_on="2025-10-21"), as_of="2026-01-31")
    assert deadline(report, "FD-1", "judicial_review") == d("2026-01-20")


def test_it_extends_review_to_thirty_days_after_a_record_requested_on_day_ten():
    decision = action(
        "FD-1",
        "final_decision",
        final_on="2025-01-10",
        record_requested_on="2025-01-20",
        record_delivered_on="2025-04-20",
    )
    assert deadline(sc_actions(decision), "FD-1", "judicial_review") == d("2025-05-20")


def test_it_does_not_extend_review_for_a_record_requested_on_day_eleven():
    decision = action(
        "FD-1",
        "final_decision",
        final_on="2025-01-10",
        record_requested_on="2025-01-21",
        record_delivered_on="2025-04-20",
    )
    assert deadline(sc_actions(decision), "FD-1", "judicial_review") == d("2025-04-10")


def test_it_keeps_the_ninety_day_deadline_when_the_record_came_early():
    decision = action(
        "FD-1",
        "final_decision",
        final_on="2025-01-10",
        record_requested_on="2025-01-12",
        record_delivered_on="2025-02-01",
    )
    assert deadline(sc_actions(decision), "FD-1", "judicial_review") == d("2025-04-10")


def test_it_rolls_the_extended_review_deadline_past_independence_day():
    decision = action(
        "FD-1",
        "final_decision",
        final_on="2025-03-03",
        record_requested_on="2025-03-05",
        record_delivered_on="2025-06-04",
    )
    assert deadline(sc_actions(decision), "FD-1", "judicial_review") == d("2025-07-07")


def test_it_ignores_a_record_delivery_dated_after_as_of():
    decision = action(
        "FD-1",
        "final_decision",
        final_on="2025-01-10",
        record_requested_on="2025-01-18",
        record_delivered_on="2025-07-20",
    )
    report = sc_actions(decision, as_of="2025-06-30")
    assert deadline(report, "FD-1", "judicial_review") == d("2025-04-10")


# San Clemente: invoice (no deadline)


def test_it_sets_no_deadline_and_no_delinquency_for_an_sc_invoice():
    report = sc_actions(invoice(noticed_on="2025-01-02"), as_of="2025-12-31")
    assert named(report, "INV-1") == []
    assert found(report, "fees.delinquent") == []


# Town: hearing_decision (noticed + 15 days, rolls)


def test_it_sets_the_council_appeal_fifteen_days_after_a_hearing_decision():
    report = town_actions(action("HD-1", "hearing_decision", noticed_on="2025-06-05"))
    assert deadline(report, "HD-1", "council_appeal") == d("2025-06-20")
    assert report.deadlines[0].citation == "10.02.330(C)"


def test_it_rolls_the_council_appeal_from_a_saturday():
    report = town_actions(action("HD-1", "hearing_decision", noticed_on="2025-06-06"))
    assert deadline(report, "HD-1", "council_appeal") == d("2025-06-23")


def test_it_rolls_the_council_appeal_past_juneteenth():
    report = town_actions(action("HD-1", "hearing_decision", noticed_on="2025-06-04"))
    assert deadline(report, "HD-1", "council_appeal") == d("2025-06-20")


def test_it_rolls_the_council_appeal_past_christmas_observed_on_a_friday():
    report = town_actions(
        action("HD-1", "hearing_decision", noticed_on="2027-12-09"), as_of="2027-12-31"
    )
    assert deadline(report, "HD-1", "council_appeal") == d("2027-12-27")


# Town: suspension_notice / revocation_notice


def town_notice(kind="suspension_notice", mailed_on="2025-04-02", **fields):
    return action("S-1", kind, mailed_on=mailed_on, **fields)


@pytest.mark.parametrize("kind", ["suspension_notice", "revocation_notice"])
def test_it_bounds_the_town_hearing_between_15_and_45_days_after_mailing(kind):
    report = town_actions(town_notice(kind))
    assert deadline(report, "S-1", "hearing", kind="earliest") == d("2025-04-17")
    assert deadline(report, "S-1", "hearing", kind="deadline") == d("2025-05-17")
    assert {x.citation for x in report.deadlines} == {"10.02.260(B)"}


def test_it_does_not_roll_the_earliest_town_hearing_off_a_saturday():
    report = town_actions(town_notice(mailed_on="2025-05-02"))
    assert deadline(report, "S-1", "hearing", kind="earliest") == d("2025-05-17")


@pytest.mark.parametrize("hearing_on", ["2025-04-16", "2025-05-18", "2025-05-19"])
def test_it_flags_a_town_hearing_outside_the_window(hearing_on):
    report = town_actions(town_notice(hearing_on=hearing_on))
    f = one(report, "enforcement.hearing_date_invalid", "S-1")
    assert (f.severity, f.open) == ("task", True)
    assert f.citation == "10.02.260(B)"


@pytest.mark.parametrize("hearing_on", ["2025-04-17", "2025-04-18", "2025-05-16", "2025-05-17"])
def test_it_accepts_a_town_hearing_inside_the_window(hearing_on):
    report = town_actions(town_notice(hearing_on=hearing_on))
    assert found(report, "enforcement.hearing_date_invalid") == []


def test_it_sets_the_town_decision_thirty_days_after_the_hearing_concludes():
    report = town_actions(town_notice(hearing_on="2025-04-20", hearing_concluded_on="2025-05-05"))
    assert deadline(report, "S-1", "decision") == d("2025-06-04")


def test_it_rolls_the_town_decision_over_a_sunday_and_memorial_day():
    report = town_actions(town_notice(hearing_on="2025-04-20", hearing_concluded_on="2025-04-25"))
    assert deadline(report, "S-1", "decision") == d("2025-05-27")


def test_it_sets_no_town_decision_deadline_before_the_hearing_concludes():
    report = town_actions(town_notice(hearing_on="2025-04-20"))
    assert named(report, "S-1") == [("hearing", "deadline"), ("hearing", "earliest")]


# Town: emergency_suspension (5 and 2 business days)


def test_it_sets_the_town_emergency_hearing_five_business_days_after_the_order_date():
    order_ = action("E-1", "emergency_suspension", ordered_at="2025-07-01T10:00:00")
    report = town_actions(order_)
    when = deadline(report, "E-1", "hearing")
    assert type(when) is date
    assert when == d("2025-07-09")
    assert report.deadlines[0].citation == "10.02.270(C)"


def test_it_counts_town_emergency_days_from_a_friday_evening_order():
    order_ = action("E-1", "emergency_suspension", ordered_at="2025-06-27T18:00:00")
    assert deadline(town_actions(order_), "E-1", "hearing") == d("2025-07-07")


def test_it_sets_the_town_emergency_decision_two_business_days_after_the_hearing():
    order_ = action(
        "E-1",
        "emergency_suspension",
        ordered_at="2025-07-01T10:00:00",
        hearing_concluded_at="2025-07-08T15:00:00",
    )
    assert deadline(town_actions(order_), "E-1", "decision") == d("2025-07-10")


def test_it_skips_thanksgiving_for_the_town_emergency_decision():
    order_ = action(
        "E-1",
        "emergency_suspension",
        ordered_at="2025-11-20T09:00:00",
        hearing_concluded_at="2025-11-26T15:00:00",
    )
    report = town_actions(order_)
    assert deadline(report, "E-1", "hearing") == d("2025-12-01")
    assert deadline(report, "E-1", "decision") == d("2025-12-02")


# Town: administrative_complaint (served + 60 days, rolls)


def test_it_sets_the_town_complaint_hearing_sixty_days_after_service():
    report = town_actions(action("AC-1", "administrative_complaint", served_on="2025-04-03"))
    assert deadline(report, "AC-1", "hearing") == d("2025-06-02")
    assert report.deadlines[0].citation == "10.02.330(B)"


def test_it_rolls_the_town_complaint_hearing_from_a_saturday():
    report = town_actions(action("AC-1", "administrative_complaint", served_on="2025-04-01"))
    assert deadline(report, "AC-1", "hearing") == d("2025-06-02")


def test_it_rolls_the_town_complaint_hearing_past_mlk_day():
    complaint = action("AC-1", "administrative_complaint", served_on="2025-11-20")
    assert deadline(town_actions(complaint, as_of="2026-01-31"), "AC-1", "hearing") == d(
        "2026-01-20"
    )


# Town: penalty_order


def test_it_makes_a_town_order_final_on_issuance_and_payable_thirty_days_later():
    report = town_actions(order(issued_by="hearing_officer", issued_on="2025-05-01"))
    assert deadline(report, "P-1", "final", kind="event") == d("2025-05-01")
    assert deadline(report, "P-1", "payment") == d("2025-06-02")
    assert deadline(report, "P-1", "lien_eligible", kind="event") == d("2025-08-01")


def test_it_cites_each_deadline_of_a_town_penalty_order():
    report = town_actions(order(issued_on="2025-05-01"))
    assert sorted((x.name, x.citation) for x in report.deadlines) == [
        ("final", "10.02.330(F)"),
        ("lien_eligible", "10.02.330(I)"),
        ("payment", "10.02.330(F)"),
    ]


def test_it_rolls_the_town_penalty_payment_past_independence_day():
    report = town_actions(order(issued_on="2025-06-04"))
    assert deadline(report, "P-1", "payment") == d("2025-07-07")
    assert deadline(report, "P-1", "lien_eligible", kind="event") == d("2025-09-05")


def test_it_lists_the_town_payment_deadline_even_when_paid():
    report = town_actions(order(issued_on="2025-05-01", paid_on="2025-05-20"))
    assert deadline(report, "P-1", "payment") == d("2025-06-02")


def test_it_drops_the_town_lien_date_when_paid_on_it():
    report = town_actions(order(issued_on="2025-05-01", paid_on="2025-08-01"))
    assert ("lien_eligible", "event") not in named(report, "P-1")


def test_it_lists_the_town_lien_date_when_paid_the_day_after_it():
    report = town_actions(order(issued_on="2025-05-01", paid_on="2025-08-02"))
    assert deadline(report, "P-1", "lien_eligible", kind="event") == d("2025-08-01")


def test_it_rejects_a_hearing_officers_order_in_san_clemente():
    with pytest.raises(CaseFileError, match="issued_by"):
        sc_actions(order(issued_by="hearing_officer"))


def test_it_rejects_a_managers_order_in_the_town():
    with pytest.raises(CaseFileError, match="issued_by"):
        town_actions(order(issued_by="manager"))


# Town: invoice and fees.delinquent


def test_it_sets_the_invoice_payment_deadline_45_days_after_notice():
    report = town_actions(invoice(noticed_on="2025-04-01"))
    assert deadline(report, "INV-1", "payment") == d("2025-05-16")
    assert report.deadlines[0].citation == "10.02.360(A)"


def test_it_rolls_the_invoice_payment_deadline_from_a_sunday():
    report = town_actions(invoice(), as_of="2025-03-01")
    assert deadline(report, "INV-1", "payment") == d("2025-03-24")


def test_it_rolls_the_invoice_payment_deadline_past_labor_day():
    report = town_actions(invoice(noticed_on="2025-07-18"))
    assert deadline(report, "INV-1", "payment") == d("2025-09-02")


def test_it_raises_no_delinquency_on_the_payment_deadline():
    report = town_actions(invoice(), as_of="2025-03-24")
    assert found(report, "fees.delinquent") == []


def test_it_opens_fees_delinquent_the_day_after_the_payment_deadline():
    report = town_actions(invoice(), as_of="2025-03-25")
    f = one(report, "fees.delinquent", "INV-1")
    assert (f.severity, f.open, f.since) == ("violation", True, d("2025-03-25"))
    assert f.citation == "10.02.360(A), (B)"
    assert report.status == "non_compliant"


def test_it_accepts_an_invoice_paid_on_the_rolled_deadline():
    report = town_actions(invoice(paid_on="2025-03-24"), as_of="2025-06-30")
    assert found(report, "fees.delinquent") == []


def test_it_closes_fees_delinquent_when_paid_the_day_after_the_deadline():
    report = town_actions(invoice(paid_on="2025-03-25"), as_of="2025-06-30")
    f = one(report, "fees.delinquent", "INV-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-03-25"), d("2025-03-25"))


def test_it_keeps_fees_delinquent_open_when_the_payment_is_dated_after_as_of():
    report = town_actions(invoice(paid_on="2025-07-01"), as_of="2025-06-30")
    assert one(report, "fees.delinquent", "INV-1").open


# Each pack's own action types


@pytest.mark.parametrize(
    "kind", ["notice_of_noncompliance", "manager_decision", "emergency_decision", "final_decision"]
)
def test_it_rejects_an_sc_only_action_type_in_the_town(kind):
    with pytest.raises(CaseFileError, match="not an action of town-10-02"):
        town_actions(action("X-1", kind))


def test_it_rejects_a_town_only_action_type_in_san_clemente():
    with pytest.raises(CaseFileError, match="not an action of san-clemente"):
        sc_actions(action("X-1", "hearing_decision", noticed_on="2025-06-05"))


# Inactive and exempt establishments: deadlines and accruals, no findings


def test_it_reports_deadlines_and_accruals_of_an_exempt_sc_establishment():
    report = sc_actions(
        notice(delivered_on="2025-05-01", correct_by="2025-05-20"),
        schedule(balance_due=500),
        as_of="2025-06-30",
        establishment={"category": "limited_food_preparation"},
    )
    assert report.status == "exempt"
    assert deadline(report, "N-1", "appeal") == d("2025-05-12")
    assert [(a.days, a.amount) for a in report.accruals] == [(41, Decimal(24600))]
    assert report.findings == []


def test_it_reports_deadlines_of_an_inactive_town_establishment_without_findings():
    report = town_actions(
        invoice(),
        order(issued_on="2025-03-03", amount=90000),
        as_of="2025-06-30",
        establishment={"closed_on": "2025-05-01"},
    )
    assert report.status == "inactive"
    assert deadline(report, "INV-1", "payment") == d("2025-03-24")
    assert deadline(report, "P-1", "lien_eligible", kind="event") == d("2025-06-01")
    assert report.findings == []
    assert report.schedule == []


def test_it_reports_accruals_of_an_inactive_sc_establishment():
    report = sc_actions(
        notice(),
        action("S-1", "suspension_notice", mailed_on="2025-03-10", hearing_on="2025-03-12"),
        as_of="2025-04-10",
        establishment={"closed_on": "2025-04-01"},
    )
    assert report.status == "inactive"
    assert [(a.action, a.days) for a in report.accruals] == [("N-1", 10)]
    assert report.findings == []


def test_it_reports_deadlines_of_an_off_sewer_town_establishment_without_findings():
    report = town_actions(
        schedule(balance_due=100, milestones=[milestone()]),
        invoice(),
        as_of="2025-06-30",
        establishment={"on_public_sewer": False},
    )
    assert report.status == "exempt"
    assert deadline(report, "INV-1", "payment") == d("2025-03-24")
    assert report.findings == []


# Actions dated after as_of have not happened yet


def test_it_ignores_a_notice_delivered_after_as_of():
    report = sc_actions(
        notice(delivered_on="2025-07-01", correct_by="2025-06-20"), as_of="2025-06-30"
    )
    assert named(report, "N-1") == []
    assert report.accruals == []


def test_it_reports_the_notice_once_as_of_reaches_its_delivery():
    report = sc_actions(
        notice(delivered_on="2025-07-01", correct_by="2025-07-10"), as_of="2025-07-01"
    )
    assert deadline(report, "N-1", "appeal") == d("2025-07-11")


def test_it_ignores_a_penalty_order_issued_after_as_of():
    report = sc_actions(
        order(issued_on="2025-07-01", served_on="2025-07-01", amount=9999), as_of="2025-06-30"
    )
    assert named(report, "P-1") == []
    assert found(report, "enforcement.penalty_over_cap") == []


def test_it_ignores_an_emergency_suspension_ordered_after_as_of():
    order_ = action("E-1", "emergency_suspension", ordered_at="2025-07-01T08:00:00")
    assert named(sc_actions(order_, as_of="2025-06-30"), "E-1") == []


def test_it_ignores_a_compliance_schedule_entered_after_as_of():
    late = schedule(entered_on="2025-07-01", balance_due=500, milestones=[milestone()])
    report = sc_actions(late, as_of="2025-06-30")
    assert defects(report) == []


def test_it_ignores_a_town_invoice_noticed_after_as_of():
    report = town_actions(invoice(noticed_on="2025-07-01"), as_of="2025-06-30")
    assert named(report, "INV-1") == []
    assert found(report, "fees.delinquent") == []


# RULES.md 11.4: an appeal filed in time suspends an order's finality until it is decided


@pytest.mark.parametrize("appealed_on, suspended", [("2025-03-13", True), ("2025-03-14", False)])
def test_it_suspends_a_manager_order_appealed_by_the_last_day(appealed_on, suspended):
    # served Mon 2025-03-03: the appeal to the Council is due by 03-13
    report = sc_actions(manager_order(appealed_on=appealed_on))
    assert deadline(report, "P-1", "appeal") == d("2025-03-13")
    names = {x.name for x in report.deadlines}
    assert ("final" not in names) is suspended
    assert ("lien_eligible" not in names) is suspended


def test_it_runs_a_decided_appeal_from_its_decision():
    report = sc_actions(manager_order(appealed_on="2025-03-10", appeal_decided_on="2025-05-20"))
    assert deadline(report, "P-1", "final", kind="event") == d("2025-05-20")
    assert deadline(report, "P-1", "judicial_review") == d("2025-06-20")  # Juneteenth rolls


def test_it_keeps_an_undecided_appeal_suspended_on_the_day_before_its_decision():
    o = manager_order(appealed_on="2025-03-10", appeal_decided_on="2025-05-20")
    report = sc_actions(o, as_of="2025-05-19")
    assert "final" not in {x.name for x in report.deadlines}


def test_it_gives_a_council_order_no_appeal():
    report = sc_actions(order(appealed_on="2025-04-03"))
    assert "appeal" not in {x.name for x in report.deadlines}
    assert deadline(report, "P-1", "final", kind="event") == d("2025-04-01")


@pytest.mark.parametrize("appealed_on, suspended", [("2025-06-16", True), ("2025-06-17", False)])
def test_it_suspends_a_town_order_appealed_by_the_rolled_deadline(appealed_on, suspended):
    # issued Fri 2025-05-30: + 15 days = Sat 06-14, rolled to Mon 06-16
    o = order(issued_by="hearing_officer", issued_on="2025-05-30", appealed_on=appealed_on)
    report = town_actions(o)
    assert deadline(report, "P-1", "council_appeal") == d("2025-06-16")
    assert ("payment" not in {x.name for x in report.deadlines}) is suspended


def test_it_gives_an_sc_compliance_schedule_order_its_appeal_to_the_council():
    schedule = action(
        "CS-1",
        "compliance_schedule",
        entered_on="2025-06-03",
        balance_due=0,
        payment_arrangement=False,
    )
    report = sc_actions(schedule)
    assert deadline(report, "CS-1", "appeal") == d("2025-06-13")


# RULES.md 11.5: the Town's continuances, at most 60 days in total


def town_hearing(**fields):
    fields = {"mailed_on": "2025-06-02", "hearing_on": "2025-07-10"} | fields
    return action("A-1", "suspension_notice", **fields)


@pytest.mark.parametrize("continued_to, fires", [("2025-09-08", False), ("2025-09-09", True)])
def test_it_allows_a_town_hearing_to_be_continued_by_60_days(continued_to, fires):
    report = town_actions(town_hearing(continued_to=continued_to), as_of="2025-09-15")
    assert bool(found(report, "enforcement.hearing_date_invalid", "A-1")) is fires


def test_it_bounds_only_the_first_town_hearing_by_45_days():
    hearing = town_hearing(hearing_on="2025-07-17", continued_to="2025-08-30")
    report = town_actions(hearing, as_of="2025-09-15")
    assert found(report, "enforcement.hearing_date_invalid") == []


def test_it_sets_no_continuance_limit_in_san_clemente():
    notice = action(
        "A-1",
        "suspension_notice",
        mailed_on="2025-06-02",
        hearing_on="2025-06-20",
        continued_to="2025-12-20",
    )
    assert found(sc_actions(notice), "enforcement.hearing_date_invalid") == []


def test_it_refuses_a_continuance_to_before_the_hearing():
    with pytest.raises(CaseFileError) as err:
        town_actions(town_hearing(continued_to="2025-07-09"))
    assert "enforcement[0].continued_to" in str(err.value)


# RULES.md 11.14: violation_days only where a class is capped per violation-day


def test_it_refuses_violation_days_for_a_class_capped_per_day():
    with pytest.raises(CaseFileError) as err:
        town_actions(order("records", "violation_days", 2, amount=100))
    assert "enforcement[0].violation_days" in str(err.value)


# RULES.md 12.8: a Council order on appeal replaces the order appealed


def council_on_appeal(id="P-2", of="P-1", **fields):
    fields = {"issued_on": "2025-05-20", "served_on": "2025-05-21", "appeal_of": of} | fields
    return action(
        id,
        "penalty_order",
        issued_by="council",
        amount=50,
        days=1,
        **{"class": "records"},
        **fields,
    )


def test_it_drops_the_finality_and_lien_of_a_manager_order_replaced_on_appeal():
    appealed = manager_order(appealed_on="2025-03-10", appeal_decided_on="2025-05-20")
    report = sc_actions(appealed, council_on_appeal())
    names = {x.name for x in report.deadlines if x.action == "P-1"}
    assert names == {"appeal"}
    assert deadline(report, "P-2", "final", kind="event") == d("2025-05-20")
    assert deadline(report, "P-2", "lien_eligible", kind="event") == d("2025-07-19")


def test_it_keeps_the_appealed_order_until_the_council_order_is_issued():
    appealed = manager_order(appealed_on="2025-03-10", appeal_decided_on="2025-05-20")
    report = sc_actions(appealed, council_on_appeal(issued_on="2025-06-02"), as_of="2025-06-01")
    assert deadline(report, "P-1", "final", kind="event") == d("2025-05-20")


def test_it_replaces_a_town_hearing_officer_order_decided_by_the_council():
    appealed = order(issued_by="hearing_officer", issued_on="2025-05-30", appealed_on="2025-06-10")
    report = town_actions(appealed, council_on_appeal(issued_on="2025-07-15"))
    assert {x.name for x in report.deadlines if x.action == "P-1"} == {"council_appeal"}
    assert deadline(report, "P-2", "final", kind="event") == d("2025-07-15")


@pytest.mark.parametrize(
    "of, problem",
    [
        ("P-9", "'P-9' is not an action of this case"),
        ("P-2", "P-2 cannot name itself"),
        ("N-1", "N-1 is a notice_of_noncompliance, not a penalty_order"),
    ],
)
def test_it_refuses_an_appeal_of_that_names_no_other_penalty_order(of, problem):
    notice = action(
        "N-1", "notice_of_noncompliance", delivered_on="2025-02-01", correct_by="2025-03-01"
    )
    with pytest.raises(CaseFileError) as e:
        sc_actions(manager_order(), notice, council_on_appeal(of=of))
    assert [(p.path, p.message) for p in e.value.problems] == [
        ("enforcement[2].appeal_of", problem)
    ]

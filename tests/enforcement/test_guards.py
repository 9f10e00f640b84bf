"""Each forbidden step is refused, citing the section that forbids it, and changes nothing."""

from decimal import Decimal

import pytest

from fogkeeper.billing import selectors as billing
from fogkeeper.enforcement.services import (
    action_take,
    appeal_file,
    court_judgment_record,
    hearing_schedule,
)

from .steps import d, emergency_heard, heard_complaint, open_case, refused, rejected_late

pytestmark = pytest.mark.django_db


def schedule(case, payment_arrangement=False):
    return dict(
        case=case,
        type="compliance_schedule",
        code="CS-1",
        fields={
            "entered_on": d("2025-04-15"),
            "payment_arrangement": payment_arrangement,
            "milestones": [{"id": "M-1", "due": d("2025-05-15")}],
        },
    )


def order(case, cls="records", amount="2000", unit="days", quantity=1, by="manager", **kw):
    fields = {
        "issued_by": by,
        "issued_on": d("2025-07-01"),
        "served_on": d("2025-07-02"),
        "amount": Decimal(amount),
        "class": cls,
        unit: quantity,
    }
    return dict(case=case, type="penalty_order", code="PO-1", fields=fields, **kw)


@pytest.fixture
def owing(monkeypatch):
    monkeypatch.setattr(billing, "account_balance", lambda establishment, on: Decimal("428.00"))


# Compliance schedule while money is owed


def test_sc_refuses_a_schedule_while_money_is_owed_without_an_arrangement(owing):
    _, case, _ = open_case("san-clemente")

    message = refused(action_take, **schedule(case))

    assert "13.30.080(F)(2)" in message and "$428.00" in message


def test_sc_allows_a_schedule_under_an_approved_payment_arrangement(owing):
    _, case, _ = open_case("san-clemente")

    action = action_take(**schedule(case, payment_arrangement=True))

    assert action.fields["balance_due"] == "428.00"


def test_the_town_refuses_a_schedule_while_money_is_owed_even_with_an_arrangement(owing):
    _, case, _ = open_case("town-10-02")

    assert "10.02.160(C), (D)" in refused(action_take, **schedule(case, payment_arrangement=True))


# Hearing outside the notice window (the window from the engine)


def suspension(case, mailed_on="2025-05-20", **fields):
    return action_take(
        case=case,
        type="suspension_notice",
        code="SN-1",
        fields={"mailed_on": d(mailed_on), **fields},
        delivery="mail",
        certified_mail_number="7019-1",
    )


def test_sc_refuses_a_hearing_less_than_ten_days_after_the_notice():
    _, case, _ = open_case("san-clemente")
    notice = suspension(case)

    message = refused(
        hearing_schedule,
        notice=notice,
        code="H-1",
        hearing_on=d("2025-05-29"),
        noticed_on=d("2025-05-20"),
    )

    assert "13.30.080(G)(2)" in message and "2025-05-30" in message


def test_the_town_refuses_a_continuance_past_60_days_after_the_first_hearing():
    _, case, _ = open_case("town-10-02")
    notice = suspension(case, mailed_on="2025-05-01")
    first = hearing_schedule(
        notice=notice, code="H-1", hearing_on=d("2025-06-10"), noticed_on=d("2025-05-01")
    )

    # Revision 2 (RULES 11.5): the 45-day bound is the first hearing's; continuances may run
    # to 60 days in total from it (June 10 + 60 = August 9).
    message = refused(
        hearing_schedule,
        notice=notice,
        code="H-2",
        hearing_on=d("2025-08-10"),
        noticed_on=d("2025-06-10"),
        continued_from=first,
    )

    assert "10.02.260(B)" in message and "2025-08-10" in message


def test_the_town_refuses_a_notice_setting_its_hearing_too_soon():
    _, case, _ = open_case("town-10-02")

    message = refused(
        action_take,
        case=case,
        type="suspension_notice",
        code="SN-1",
        fields={"mailed_on": d("2025-05-01"), "hearing_on": d("2025-05-15")},
    )

    assert "10.02.260(B)" in message and "2025-05-16" in message


# Penalty above its class cap


def test_sc_refuses_a_records_penalty_above_2000_a_day():
    _, case, _ = open_case("san-clemente")

    message = refused(action_take, **order(case, amount="6000.01", quantity=3))

    assert "13.30.080(I)(4)(c)(1)" in message and "$6,000" in message


def test_the_town_refuses_an_overflow_penalty_above_5000_an_occurrence():
    _, case, _ = open_case("town-10-02")

    kw = order(case, cls="overflow", amount="5001", unit="occurrences", by="hearing_officer")

    assert "10.02.330(D)(4)" in refused(action_take, **kw)


def test_it_refuses_a_court_judgment_above_25000_a_day():
    _, case, violation = open_case("san-clemente")

    message = refused(
        court_judgment_record,
        case=case,
        code="CJ-1",
        entered_on=d("2025-09-01"),
        violation=violation,
        amount=Decimal("50001"),
        days=2,
    )

    assert "13.30.080(I)(3)" in message


# Appeal after its deadline (the deadline from the engine)


def test_sc_rejects_as_late_an_appeal_of_a_notice_after_ten_days():
    _, case, _ = open_case("san-clemente")
    notice = action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-1",
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
    )

    appeal = rejected_late(notice, "2025-03-14", "manager")

    assert (appeal.cites, appeal.fields["last_day"]) == ("13.30.080(D)(1)", "2025-03-13")


def test_the_town_rejects_as_late_a_council_appeal_after_fifteen_days():
    _, case, _ = open_case("town-10-02")
    decision = action_take(
        case=case,
        type="hearing_decision",
        code="HD-1",
        fields={"noticed_on": d("2025-03-03")},
        refers_to=heard_complaint(case, served_on="2025-03-02"),
    )

    appeal = rejected_late(decision, "2025-03-19", "council")

    assert appeal.cites == "10.02.330(C)" and appeal.fields["last_day"] == "2025-03-18"


def test_sc_refuses_judicial_review_of_a_final_decision_after_ninety_days():
    _, case, _ = open_case("san-clemente")
    notice = action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-1",
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
    )
    to_manager = appeal_file(appealed=notice, code="A-1", filed_on=d("2025-03-10"), to="manager")
    decision = action_take(
        case=case,
        type="manager_decision",
        code="MD-1",
        refers_to=to_manager,
        fields={"delivered_on": d("2025-04-01")},
    )
    to_council = appeal_file(appealed=decision, code="A-2", filed_on=d("2025-04-08"), to="council")
    final = action_take(
        case=case,
        type="final_decision",
        code="FD-1",
        refers_to=to_council,
        fields={"final_on": d("2025-07-01")},
    )

    message = refused(appeal_file, appealed=final, code="A-3", filed_on=d("2025-09-30"), to="court")

    assert "13.30.090(C), (E)" in message and "2025-09-29" in message


# An administrative penalty for a violation already penalised in court


@pytest.mark.parametrize(
    ("pack", "issued_by", "citation"),
    [
        ("san-clemente", "manager", "13.30.080(I)(8)"),
        ("town-10-02", "hearing_officer", "10.02.330(J)"),
    ],
)
def test_it_refuses_an_administrative_penalty_after_a_court_penalty(pack, issued_by, citation):
    _, case, violation = open_case(pack)
    court_judgment_record(
        case=case,
        code="CJ-1",
        entered_on=d("2025-06-01"),
        violation=violation,
        amount=Decimal("25000"),
        days=1,
    )
    assert citation in refused(action_take, **order(case, by=issued_by, violation=violation))


# Steps out of sequence


def test_sc_refuses_a_council_decision_no_appeal_brought_to_the_council():
    _, case, _ = open_case("san-clemente")

    message = refused(
        action_take,
        case=case,
        type="final_decision",
        code="FD-1",
        fields={"final_on": d("2025-07-01")},
    )

    assert "Out of sequence" in message and "council" in message


def test_sc_refuses_to_take_a_notice_straight_to_the_council():
    _, case, _ = open_case("san-clemente")
    notice = action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-1",
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
    )

    message = refused(
        appeal_file, appealed=notice, code="A-1", filed_on=d("2025-03-05"), to="council"
    )

    assert "Out of sequence" in message and "manager" in message


def test_the_town_refuses_an_action_type_of_san_clemente():
    _, case, _ = open_case("town-10-02")

    message = refused(
        action_take,
        case=case,
        type="manager_decision",
        code="MD-1",
        fields={"delivered_on": d("2025-07-01")},
    )

    assert "not an enforcement action" in message


def test_the_town_refuses_a_council_penalty_order_without_an_appeal():
    _, case, _ = open_case("town-10-02")
    assert "Out of sequence" in refused(action_take, **order(case, by="council"))


def test_sc_refuses_a_complaint_hearing_more_than_thirty_days_after_service():
    _, case, _ = open_case("san-clemente")
    complaint = action_take(
        case=case,
        type="administrative_complaint",
        code="AC-1",
        fields={"served_on": d("2025-06-02")},
    )

    message = refused(
        hearing_schedule,
        notice=complaint,
        code="H-1",
        hearing_on=d("2025-07-03"),
        noticed_on=d("2025-06-02"),
    )

    assert "13.30.080(I)(4)(a)" in message and "2025-07-02" in message


def test_sc_takes_an_emergency_decision_to_the_city_manager_within_two_business_days():
    _, case, _ = open_case("san-clemente")
    decision = action_take(
        case=case,
        type="emergency_decision",
        code="ED-1",
        refers_to=emergency_heard(case),
        fields={"delivered_on": d("2025-07-03")},
    )

    # July 4 is a holiday: the two business days are July 7 and 8.
    appeal = rejected_late(decision, "2025-07-09", "city_manager")

    assert (appeal.cites, appeal.fields["last_day"]) == ("13.30.080(H)(4)", "2025-07-08")

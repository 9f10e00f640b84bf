"""Appeals go where the pack routes them (its deadlines marked `appeal_to`), by those
deadlines; an appeal of a penalty order suspends its finality until decided (RULES 11.4)."""

from decimal import Decimal

import pytest

from fogkeeper.enforcement.services import action_take, appeal_file

from .steps import d, deadlines, heard_complaint, open_case, refused, rejected_late

pytestmark = pytest.mark.django_db


def order(case, by, code="PO-1", refers_to=None, issued_on="2025-07-01", served_on="2025-07-02"):
    if refers_to is None:
        refers_to = heard_complaint(case)
    return action_take(
        case=case,
        type="penalty_order",
        code=code,
        refers_to=refers_to,
        fields={
            "issued_by": by,
            "issued_on": d(issued_on),
            "served_on": d(served_on),
            "amount": Decimal("2000"),
            "class": "records",
            "days": 1,
        },
    )


def schedule(case):
    return action_take(
        case=case,
        type="compliance_schedule",
        code="CS-1",
        fields={
            "entered_on": d("2025-04-15"),
            "payment_arrangement": False,
            "milestones": [{"id": "M-1", "due": d("2025-05-15")}],
        },
    )


# San Clemente: a manager's penalty order is appealed to the Council, served + 10 days


def test_sc_appeals_a_managers_penalty_order_to_the_council_by_the_rolled_deadline():
    _, case, _ = open_case("san-clemente")
    po = order(case, "manager")

    # Served July 2: ten days is Saturday July 12, rolled to Monday July 14.
    appeal = appeal_file(appealed=po, code="A-1", filed_on=d("2025-07-14"), to="council")

    assert (appeal.level, appeal.cites) == ("council", "13.30.080(I)(6), (D)(2)")


def test_sc_rejects_as_late_an_appeal_of_a_managers_penalty_order_after_the_deadline():
    fse, case, _ = open_case("san-clemente")
    po = order(case, "manager")

    appeal = rejected_late(po, "2025-07-15", "council")

    assert (appeal.cites, appeal.fields["last_day"]) == ("13.30.080(I)(6), (D)(2)", "2025-07-14")
    assert deadlines(fse, "2025-07-20")[("PO-1", "final", "event")] == "2025-07-13"


def test_sc_refuses_an_appeal_of_a_penalty_order_to_a_level_the_pack_does_not_route_to():
    _, case, _ = open_case("san-clemente")
    po = order(case, "manager")

    message = refused(appeal_file, appealed=po, code="A-1", filed_on=d("2025-07-03"), to="manager")

    assert "Out of sequence" in message and "council" in message


def test_sc_appeals_a_compliance_schedule_order_to_the_council_within_ten_days():
    _, case, _ = open_case("san-clemente")
    cs = schedule(case)

    appeal = appeal_file(appealed=cs, code="A-1", filed_on=d("2025-04-25"), to="council")

    assert appeal.cites == "13.30.080(F)(3), (D)(2)"


def test_sc_rejects_as_late_an_appeal_of_a_compliance_schedule_order_after_ten_days():
    _, case, _ = open_case("san-clemente")
    cs = schedule(case)

    appeal = rejected_late(cs, "2025-04-28", "council")

    assert "13.30.080(F)(3)" in appeal.cites and appeal.fields["last_day"] == "2025-04-25"


def test_sc_refuses_a_second_appeal_of_the_same_order_to_the_council():
    _, case, _ = open_case("san-clemente")
    po = order(case, "manager")
    appeal_file(appealed=po, code="A-1", filed_on=d("2025-07-03"), to="council")

    message = refused(appeal_file, appealed=po, code="A-2", filed_on=d("2025-07-04"), to="council")

    assert "already appealed" in message and "A-1" in message


def test_sc_the_councils_penalty_order_goes_only_to_court():
    _, case, _ = open_case("san-clemente")
    first = order(case, "manager")
    appeal = appeal_file(appealed=first, code="A-1", filed_on=d("2025-07-10"), to="council")
    council = order(
        case,
        "council",
        code="PO-2",
        refers_to=appeal,
        issued_on="2025-08-01",
        served_on="2025-08-01",
    )

    message = refused(
        appeal_file, appealed=council, code="A-2", filed_on=d("2025-08-05"), to="council"
    )

    assert "Out of sequence" in message and "appealed to court, not to council" in message


# The Town: a hearing officer's penalty order is appealed to the Council, issued + 15 days


def test_the_town_appeals_a_hearing_officers_penalty_order_to_the_council_in_fifteen_days():
    _, case, _ = open_case("town-10-02")
    po = order(case, "hearing_officer")

    appeal = appeal_file(appealed=po, code="A-1", filed_on=d("2025-07-16"), to="council")

    assert (appeal.level, appeal.cites) == ("council", "10.02.330(C)")


def test_the_town_rejects_as_late_an_appeal_of_a_penalty_order_on_the_sixteenth_day():
    _, case, _ = open_case("town-10-02")
    po = order(case, "hearing_officer")

    appeal = rejected_late(po, "2025-07-17", "council")

    assert (appeal.cites, appeal.fields["last_day"]) == ("10.02.330(C)", "2025-07-16")


def test_the_town_councils_penalty_order_has_no_appeal():
    _, case, _ = open_case("town-10-02")
    first = order(case, "hearing_officer")
    appeal = appeal_file(appealed=first, code="A-1", filed_on=d("2025-07-10"), to="council")
    council = order(
        case,
        "council",
        code="PO-2",
        refers_to=appeal,
        issued_on="2025-08-01",
        served_on="2025-08-01",
    )

    message = refused(
        appeal_file, appealed=council, code="A-2", filed_on=d("2025-08-05"), to="council"
    )

    assert "Out of sequence" in message and "nowhere" in message


# Appeals suspend finality (RULES 11.4): recorded on the order as engine facts


def test_an_appeal_of_a_penalty_order_is_recorded_on_it():
    _, case, _ = open_case("san-clemente")
    po = order(case, "manager")

    appeal_file(appealed=po, code="A-1", filed_on=d("2025-07-10"), to="council")

    assert po.effective_fields()["appealed_on"] == "2025-07-10"


def test_an_appeal_of_a_notice_is_not_recorded_on_it():
    _, case, _ = open_case("san-clemente")
    notice = action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-1",
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
    )

    appeal_file(appealed=notice, code="A-1", filed_on=d("2025-03-10"), to="manager")

    assert "appealed_on" not in notice.effective_fields()


def test_sc_an_undecided_appeal_holds_the_order_from_becoming_final():
    fse, case, _ = open_case("san-clemente")
    po = order(case, "manager")
    assert deadlines(fse, "2025-07-20")[("PO-1", "final", "event")] == "2025-07-13"

    appeal_file(appealed=po, code="A-1", filed_on=d("2025-07-10"), to="council")

    due = deadlines(fse, "2025-07-20")
    assert ("PO-1", "final", "event") not in due
    assert ("PO-1", "judicial_review", "deadline") not in due


def test_sc_the_councils_decision_on_the_appeal_makes_the_order_final_that_day():
    fse, case, _ = open_case("san-clemente")
    po = order(case, "manager")
    appeal = appeal_file(appealed=po, code="A-1", filed_on=d("2025-07-10"), to="council")

    action_take(
        case=case,
        type="final_decision",
        code="FD-1",
        refers_to=appeal,
        fields={"final_on": d("2025-08-05")},
    )

    assert po.effective_fields()["appeal_decided_on"] == "2025-08-05"
    assert deadlines(fse, "2025-08-06")[("PO-1", "final", "event")] == "2025-08-05"


def test_the_town_councils_order_on_the_appeal_decides_it():
    fse, case, _ = open_case("town-10-02")
    po = order(case, "hearing_officer")
    appeal = appeal_file(appealed=po, code="A-1", filed_on=d("2025-07-10"), to="council")
    assert ("PO-1", "payment", "deadline") not in deadlines(fse, "2025-07-20")

    order(
        case,
        "council",
        code="PO-2",
        refers_to=appeal,
        issued_on="2025-08-01",
        served_on="2025-08-01",
    )

    assert po.effective_fields()["appeal_decided_on"] == "2025-08-01"
    # The Council's order replaces PO-1 (RULES.md 12.8): final on issuance, payable 30 days
    # after (Sunday Aug 31 and Labor Day roll it); PO-1 is never final.
    due = deadlines(fse, "2025-08-02")
    assert ("PO-1", "final", "event") not in due
    assert due[("PO-2", "final", "event")] == "2025-08-01"
    assert due[("PO-2", "payment", "deadline")] == "2025-09-02"


def test_an_appeal_is_not_decided_before_it_was_filed():
    _, case, _ = open_case("san-clemente")
    po = order(case, "manager")
    appeal = appeal_file(appealed=po, code="A-1", filed_on=d("2025-07-10"), to="council")

    message = refused(
        action_take,
        case=case,
        type="final_decision",
        code="FD-1",
        refers_to=appeal,
        fields={"final_on": d("2025-07-09")},
    )

    assert "A-1" in message and "2025-07-10" in message


def test_a_late_appeal_gets_a_letter_citing_its_last_day():
    from tests.letters.test_letters import text_of

    _, case, _ = open_case("san-clemente")
    po = order(case, "manager")

    late = rejected_late(po, "2025-07-15", "council")

    text = text_of(late.letters.get().pdf)
    assert "Notice of an appeal rejected as late" in text
    assert "The last day to file it was July 14, 2025" in text and "13.30.080(I)(6)" in text
    assert "rejected as late" in text

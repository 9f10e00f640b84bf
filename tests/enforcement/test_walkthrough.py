"""One establishment in each jurisdiction taken through the whole sequence, on the dates the
ordinance gives, every deadline and amount read from the engine through the case file."""

from decimal import Decimal

import pytest

from fogkeeper.billing.selectors import account_balance, business_licence_renewal_blocked
from fogkeeper.billing.services import invoice_issue, payment_record
from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import Letter
from fogkeeper.enforcement.services import (
    action_fact_record,
    action_take,
    appeal_file,
    hearing_conclude,
    hearing_schedule,
)

from .steps import accruals, d, deadlines, findings, heard_complaint, open_case

pytestmark = pytest.mark.django_db


def letters_sent(case) -> list[str]:
    return sorted(Letter.objects.filter(action__case=case).values_list("action__code", flat=True))


def _sc_noticed_and_fined_until_corrected(fse, case, violation):
    """The Notice of Non-Compliance and the daily fine it accrues until corrected."""
    # The violation is the engine's: operating without a Discharge Permit.
    assert findings(fse, "2025-03-01", "permit.missing")[0][2] is True

    # Notice of Non-Compliance, mailed certified: appeal to the Utilities Manager in 10 days.
    notice = action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-1",
        violation=violation,
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
        delivery="mail",
        certified_mail_number="7019 0700 0000 1111 2222",
    )
    assert notice.cites == "13.30.080(D)(1), (E)"
    assert deadlines(fse, "2025-03-04")[("NNC-1", "appeal", "deadline")] == "2025-03-13"

    # Not corrected by March 31: $600 a day from April 1.
    assert accruals(fse, "2025-03-31") == []
    assert accruals(fse, "2025-04-10") == [("NNC-1", 10, "6000.00")]
    action_fact_record(action=notice, field="corrected_on", value=d("2025-04-15"))
    assert accruals(fse, "2025-04-30") == [("NNC-1", 14, "8400.00")]


def _sc_schedule_missed(fse, case):
    """A compliance schedule whose milestone is missed."""
    # A compliance schedule (nothing owed), its milestone missed.
    schedule = action_take(
        case=case,
        type="compliance_schedule",
        code="CS-1",
        fields={
            "entered_on": d("2025-04-15"),
            "payment_arrangement": False,
            "milestones": [{"id": "M-1", "due": d("2025-05-15")}],
        },
    )
    assert Decimal(schedule.fields["balance_due"]) == 0
    assert findings(fse, "2025-05-15", "enforcement.schedule_missed") == []
    assert findings(fse, "2025-05-20", "enforcement.schedule_missed") == [
        ("CS-1", "2025-05-16", True)
    ]


def _sc_suspended_to_final_decision(fse, case):
    """The suspension, heard, decided, reviewed by the Council, final."""
    # Suspension notice: the hearing no sooner than 10 days after mailing.
    suspension = action_take(
        case=case,
        type="suspension_notice",
        code="SN-1",
        fields={"mailed_on": d("2025-05-20")},
        delivery="mail",
        certified_mail_number="7019 0700 0000 1111 3333",
    )
    assert deadlines(fse, "2025-05-21")[("SN-1", "hearing", "earliest")] == "2025-05-30"
    hearing = hearing_schedule(
        notice=suspension, code="H-1", hearing_on=d("2025-06-02"), noticed_on=d("2025-05-20")
    )
    hearing_conclude(hearing=hearing, concluded_on=d("2025-06-02"))
    assert findings(fse, "2025-06-03", "enforcement.hearing_date_invalid") == []

    # The Utilities Manager's decision after the hearing orders the suspension; Council review
    # requested within 10 days (June 15 is a Sunday: the deadline rolls to Monday).
    decision = action_take(
        case=case,
        type="manager_decision",
        code="MD-1",
        refers_to=hearing,
        fields={
            "delivered_on": d("2025-06-05"),
            "orders": "suspension",
            "suspended_from": d("2025-06-10"),
            "suspended_until": d("2025-07-09"),
        },
        delivery="personal",
    )
    assert deadlines(fse, "2025-06-06")[("MD-1", "council_review_request", "deadline")] == (
        "2025-06-16"
    )
    appeal = appeal_file(appealed=decision, code="A-1", filed_on=d("2025-06-16"), to="council")
    assert appeal.cites == "13.30.080(D)(2)"

    # The Council's final decision: judicial review within 90 days.
    action_take(
        case=case,
        type="final_decision",
        code="FD-1",
        refers_to=appeal,
        fields={"final_on": d("2025-07-01")},
        delivery="mail",
        certified_mail_number="7019-4444",
    )
    assert deadlines(fse, "2025-07-02")[("FD-1", "judicial_review", "deadline")] == "2025-09-29"


def _sc_penalty_ordered_and_replaced(fse, case, violation):
    """The administrative complaint to the Council's penalty order that replaces the
    Manager's; returns the Council's."""
    # The administrative complaint, its hearing within 30 days, then the Manager's penalty
    # order ($5,000 a day × 10 days, at the cap), served, appealed to the Council in time.
    complaint = action_take(
        case=case,
        type="administrative_complaint",
        code="AC-1",
        violation=violation,
        fields={"served_on": d("2025-07-01")},
        delivery="mail",
        certified_mail_number="7019-5",
    )
    heard = hearing_schedule(
        notice=complaint, code="H-2", hearing_on=d("2025-07-21"), noticed_on=d("2025-07-01")
    )
    hearing_conclude(hearing=heard, concluded_on=d("2025-07-21"))
    managers = action_take(
        case=case,
        type="penalty_order",
        code="PO-1",
        refers_to=complaint,
        violation=violation,
        fields={
            "issued_by": "manager",
            "issued_on": d("2025-07-22"),
            "served_on": d("2025-07-23"),
            "amount": Decimal("50000"),
            "class": "permit",
            "days": 10,
        },
        delivery="mail",
        certified_mail_number="7019-5555",
    )
    to_council = appeal_file(appealed=managers, code="A-2", filed_on=d("2025-07-30"), to="council")

    # The Council's order on the appeal cuts it to $20,000 and replaces it (RULES.md 12.8):
    # final on issuance, review within 30 days, a lien 60 days after final while unpaid.
    order = action_take(
        case=case,
        type="penalty_order",
        code="PO-2",
        refers_to=to_council,
        violation=violation,
        fields={
            "issued_by": "council",
            "issued_on": d("2025-08-05"),
            "served_on": d("2025-08-06"),
            "amount": Decimal("20000"),
            "class": "permit",
            "days": 4,
        },
        delivery="mail",
        certified_mail_number="7019-6666",
    )
    due = deadlines(fse, "2025-10-10")
    assert ("PO-1", "final", "event") not in due and ("PO-1", "lien_eligible", "event") not in due
    assert due[("PO-2", "final", "event")] == "2025-08-05"
    assert due[("PO-2", "judicial_review", "deadline")] == "2025-09-04"
    assert due[("PO-2", "lien_eligible", "event")] == "2025-10-04"
    return order


def test_san_clemente_from_notice_to_lien():
    fse, case, violation = open_case("san-clemente", rule="permit.missing")
    _sc_noticed_and_fined_until_corrected(fse, case, violation)

    _sc_schedule_missed(fse, case)

    _sc_suspended_to_final_decision(fse, case)

    order = _sc_penalty_ordered_and_replaced(fse, case, violation)

    # Paid late (after the lien date): still lien-eligible.
    action_fact_record(action=order, field="paid_on", value=d("2025-10-08"))
    assert deadlines(fse, "2025-10-10")[("PO-2", "lien_eligible", "event")] == "2025-10-04"

    # The nightly sweep sees the same case file: the missed milestone is stored.
    sweep_agency(fse.agency, as_of=d("2025-10-10"))
    stored = Finding.objects.get(establishment=fse, rule="enforcement.schedule_missed")
    assert (stored.subject, stored.since) == ("CS-1", d("2025-05-16"))
    # Each notice, hearing notice, decision and order went out with its letter.
    assert letters_sent(case) == [
        "AC-1",
        "CS-1",
        "FD-1",
        "H-1",
        "H-2",
        "MD-1",
        "NNC-1",
        "PO-1",
        "PO-2",
        "SN-1",
    ]


def _town_schedule_missed_and_suspension_noticed(fse, case):
    """A compliance schedule whose milestone is missed, then the suspension notice; returns
    the notice."""
    action_take(
        case=case,
        type="compliance_schedule",
        code="CS-1",
        fields={
            "entered_on": d("2025-04-01"),
            "payment_arrangement": False,
            "milestones": [{"id": "M-1", "due": d("2025-05-01")}],
        },
    )
    assert findings(fse, "2025-05-05", "enforcement.schedule_missed") == [
        ("CS-1", "2025-05-02", True)
    ]

    # Suspension notice: hearing not sooner than 15 days nor later than 45 days after mailing.
    suspension = action_take(
        case=case,
        type="suspension_notice",
        code="SN-1",
        fields={"mailed_on": d("2025-05-01")},
        delivery="mail",
        certified_mail_number="7019-2",
    )
    due = deadlines(fse, "2025-05-02")
    assert due[("SN-1", "hearing", "earliest")] == "2025-05-16"
    assert due[("SN-1", "hearing", "deadline")] == "2025-06-15"
    return suspension


def _town_suspension_heard_and_decided(fse, case, suspension):
    """The suspension's hearing, continued, and the decision, final unappealed."""
    # A hearing, continued; the decision within 30 days of its close (June 19 is Juneteenth).
    first = hearing_schedule(
        notice=suspension, code="H-1", hearing_on=d("2025-05-16"), noticed_on=d("2025-05-01")
    )
    second = hearing_schedule(
        notice=suspension,
        code="H-2",
        hearing_on=d("2025-05-20"),
        noticed_on=d("2025-05-16"),
        continued_from=first,
    )
    hearing_conclude(hearing=second, concluded_on=d("2025-05-20"))
    assert deadlines(fse, "2025-05-21")[("SN-1", "decision", "deadline")] == "2025-06-20"

    # The decision orders a suspension; appeal to the Council in 15 days (June 28 is a
    # Saturday); unappealed, it is final the day after that time passes (10.02.260(B)).
    action_take(
        case=case,
        type="hearing_decision",
        code="HD-1",
        refers_to=second,
        fields={"noticed_on": d("2025-06-13"), "orders": "suspension"},
        delivery="mail",
        certified_mail_number="7019-3",
    )
    due = deadlines(fse, "2025-07-02")
    assert due[("HD-1", "council_appeal", "deadline")] == "2025-06-30"
    assert due[("HD-1", "final", "event")] == "2025-07-01"


def _town_penalty_ordered_and_replaced(fse, case, violation):
    """The administrative complaint to the Council's penalty order that replaces the hearing
    officer's, with every letter sent."""
    # The administrative complaint, heard within 60 days; the hearing officer's penalty order
    # is appealed to the Council, whose order replaces it (RULES.md 12.8).
    complaint = action_take(
        case=case,
        type="administrative_complaint",
        code="AC-1",
        violation=violation,
        fields={"served_on": d("2025-06-02")},
        delivery="mail",
        certified_mail_number="7019-5",
    )
    heard = hearing_schedule(
        notice=complaint, code="H-3", hearing_on=d("2025-06-23"), noticed_on=d("2025-06-02")
    )
    hearing_conclude(hearing=heard, concluded_on=d("2025-06-23"))
    officers = action_take(
        case=case,
        type="penalty_order",
        code="PO-1",
        refers_to=complaint,
        violation=violation,
        fields={
            "issued_by": "hearing_officer",
            "issued_on": d("2025-06-25"),
            "served_on": d("2025-06-26"),
            "amount": Decimal("20000"),
            "class": "records",
            "days": 10,
        },
        delivery="mail",
        certified_mail_number="7019-6",
    )
    appeal = appeal_file(appealed=officers, code="A-1", filed_on=d("2025-06-30"), to="council")

    # The Council's order ($2,000 a day × 5 days): payable in 30 days, a lien 60 days after
    # that while unpaid.
    action_take(
        case=case,
        type="penalty_order",
        code="PO-2",
        refers_to=appeal,
        violation=violation,
        fields={
            "issued_by": "council",
            "issued_on": d("2025-07-15"),
            "served_on": d("2025-07-16"),
            "amount": Decimal("10000"),
            "class": "records",
            "days": 5,
        },
        delivery="mail",
        certified_mail_number="7019-4",
    )
    due = deadlines(fse, "2025-08-20")
    assert ("PO-1", "final", "event") not in due
    assert due[("PO-2", "final", "event")] == "2025-07-15"
    assert due[("PO-2", "payment", "deadline")] == "2025-08-14"
    assert due[("PO-2", "lien_eligible", "event")] == "2025-10-13"
    assert letters_sent(case) == [
        "AC-1",
        "CS-1",
        "H-1",
        "H-2",
        "H-3",
        "HD-1",
        "PO-1",
        "PO-2",
        "SN-1",
    ]


def test_town_from_complaint_to_lien():
    fse, case, violation = open_case("town-10-02", rule="permit.missing")
    assert findings(fse, "2025-03-01", "permit.missing")[0][2] is True
    assert accruals(fse, "2025-04-30") == []  # no daily fine in the Town

    suspension = _town_schedule_missed_and_suspension_noticed(fse, case)

    _town_suspension_heard_and_decided(fse, case, suspension)

    _town_penalty_ordered_and_replaced(fse, case, violation)

    # The penalty is invoiced; the Town's permit fee invoice goes unpaid too: delinquent 45 days
    # after notice (Sept 1 + 45 = Oct 16), and the business license may not be renewed.
    penalty = invoice_issue(
        establishment=fse,
        code="INV-P1",
        kind="penalty",
        noticed_on=d("2025-07-16"),
        enforcement_action="PO-2",
        lines=[{"description": "Penalty", "amount": Decimal("10000")}],
    )
    invoice_issue(
        establishment=fse,
        code="INV-F1",
        kind="fee",
        noticed_on=d("2025-09-01"),
        lines=[{"description": "FOG Permit fee", "amount": Decimal("428.00")}],
    )
    # The penalty invoice is delinquent too, 45 days after its notice (10.02.360(A): "all
    # fees, charges and penalties"): July 16 + 45 = Aug 30, rolled to Tuesday Sept 2.
    late_penalty = ("INV-P1", "2025-09-03", True)
    assert findings(fse, "2025-10-16", "fees.delinquent") == [late_penalty]
    assert findings(fse, "2025-10-17", "fees.delinquent") == [
        ("INV-F1", "2025-10-17", True),
        late_penalty,
    ]
    assert business_licence_renewal_blocked(fse, d("2025-10-17"))
    assert account_balance(fse, d("2025-10-17")) == Decimal("10428.00")

    # The penalty paid in full through billing on Oct 1, before the lien date: no lien.
    payment_record(
        invoice=penalty, paid_on=d("2025-10-01"), amount=Decimal("10000"), method="check"
    )
    assert ("PO-1", "lien_eligible", "event") not in deadlines(fse, "2025-10-20")


def test_a_penalty_paid_before_the_lien_date_is_not_lien_eligible():
    fse, case, violation = open_case("town-10-02")
    order = action_take(
        case=case,
        type="penalty_order",
        code="PO-1",
        violation=violation,
        refers_to=heard_complaint(case, served_on="2025-07-01"),
        fields={
            "issued_by": "hearing_officer",
            "issued_on": d("2025-07-15"),
            "served_on": d("2025-07-16"),
            "amount": Decimal("1000"),
            "class": "records",
            "days": 1,
        },
    )
    action_fact_record(action=order, field="paid_on", value=d("2025-08-14"))

    assert ("PO-1", "lien_eligible", "event") not in deadlines(fse, "2025-12-31")


def test_sc_emergency_suspension_sets_its_hearing_within_48_hours():
    fse, case, _ = open_case("san-clemente")
    action_take(
        case=case,
        type="emergency_suspension",
        code="ES-1",
        fields={"ordered_at": "2025-07-01T10:00:00"},
    )

    assert deadlines(fse, "2025-07-01")[("ES-1", "hearing", "deadline")] == "2025-07-03T10:00:00"

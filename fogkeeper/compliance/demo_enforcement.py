"""The enforcement and money of the demo programs: for each agency, one enforcement case
with its letters, a fee schedule, and invoices (one paid, one not), taken through the same
services staff use, so the guards and the audit trail apply."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

FEES = {
    "san-clemente": [
        {"code": "RGI", "description": "Annual Restaurant Grease Inspection fee",
         "amount": Decimal("312.00"), "basis": "annual", "citation": "13.30.050(M)"},
        {"code": "CLEAN", "description": "Quarterly clean-out fee", "amount": Decimal("95.00"),
         "basis": "quarterly", "citation": "13.30.050(M)"},
        {"code": "NONCOMP", "description": "Noncompliance charge (actual cost)", "amount": None,
         "basis": "actual_cost", "citation": "13.30.080(E)(2)"},
    ],
    "town-10-02": [
        {"code": "PERMIT", "description": "FOG Permit fee", "amount": Decimal("428.00"),
         "basis": "annual", "citation": "10.02.360(A)"},
        {"code": "SFCC", "description": "Specialty FOG Compliance Charge",
         "amount": Decimal("150.00"), "basis": "per_occurrence", "citation": "10.02.360(A)"},
    ],
}  # fmt: skip


def _subject(fse) -> str:
    device = fse.devices.order_by("code").first()
    return device.code if device is not None else fse.code


def _overdue(fses, as_of: date, by: date):
    """The first of `fses` whose pump-out the engine finds overdue on `as_of`, since `by` or
    earlier, so that the case is about a violation the sweep finds: (establishment, device,
    since)."""
    from fogkeeper.rules import evaluate, parse_case

    from .casefiles import build_case_files

    if not fses:
        return None
    cases = build_case_files(fses[0].agency, [f.pk for f in fses], as_of)
    for fse in fses:
        for finding in evaluate(parse_case(cases[fse.pk])).open_violations():
            if finding.rule == "gcd.service_overdue" and finding.since <= by:
                return fse, finding.subject, finding.since
    return None


def load_enforcement(agency, *, as_of: date, staff) -> None:
    from fogkeeper.billing.services import fee_schedule_set, invoice_issue, payment_record
    from fogkeeper.enforcement.services import action_take, case_open, violation_add

    pack = agency.get_pack()
    fee_schedule_set(
        agency=agency, effective_on=pack.effective, items=FEES[pack.id],
        resolution="Demo fee resolution", actor=staff,
    )  # fmt: skip
    open_fses = list(
        agency.establishments.filter(
            closed_on__isnull=True, on_public_sewer=True, category="full_service"
        ).order_by("code")
    )
    before = lambda days: as_of - timedelta(days=days)  # noqa: E731
    fse, subject, since = _overdue(open_fses, as_of, before(10)) or (
        open_fses[0],
        _subject(open_fses[0]),
        before(90),
    )
    other = next(f for f in open_fses if f != fse)
    after = lambda days: min(since + timedelta(days=days), as_of)  # noqa: E731
    case = case_open(establishment=fse, code="EC-1", opened_on=after(3), actor=staff)
    violation = violation_add(
        case=case, code="V-1", rule="gcd.service_overdue", subject=subject, since=since,
        actor=staff,
    )  # fmt: skip
    if pack.id == "san-clemente":
        action_take(
            case=case, type="notice_of_noncompliance", code="NNC-1", violation=violation,
            fields={"delivered_on": after(5), "correct_by": after(5) + timedelta(days=30)},
            delivery="mail", certified_mail_number="7019 0700 0000 4412 0001", actor=staff,
        )  # fmt: skip
        fees = ["RGI"]
    else:
        action_take(
            case=case, type="hearing_decision", code="HD-1", violation=violation,
            fields={"noticed_on": after(7)}, delivery="mail",
            certified_mail_number="7019 0700 0000 4412 0002", actor=staff,
        )  # fmt: skip
        fees = ["PERMIT"]
    paid = invoice_issue(
        establishment=other, code="INV-1", kind="fee", noticed_on=before(200), fees=fees,
        actor=staff,
    )  # fmt: skip
    payment_record(
        invoice=paid, paid_on=before(180), amount=paid.total(), method="check",
        reference="4471", actor=staff,
    )  # fmt: skip
    invoice_issue(
        establishment=fse, code="INV-2", kind="fee", noticed_on=before(60), fees=fees,
        actor=staff,
    )  # fmt: skip

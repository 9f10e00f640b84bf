"""Reads of money: the fee in force, what an establishment owes, its statement, and what the
engine decides about its invoices (due dates, delinquency, the Town's business license
block). The payment rules themselves are the engine's (RULES.md section 10): this module
builds an invoice-only case file and reads the report."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Sum

from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from fogkeeper.rules import evaluate, parse_case
from fogkeeper.rules.errors import ParameterNotInForce
from fogkeeper.rules.payment import payment_terms
from fogkeeper.rules.report import Finding
from fogkeeper.upcalls import report_of

from .casefiles import invoice_actions
from .models import ZERO, FeeItem, FeeSchedule, Invoice, InvoiceAdjustment, InvoiceLine, Payment

DELINQUENT = "fees.delinquent"
COST_RECOVERY_PERIOD = "incident.cost_recovery_period"


def fee_schedule_in_force(*, agency: Agency, on: date) -> FeeSchedule | None:
    """The schedule that took effect last on or before `on`."""
    return (
        FeeSchedule.objects.filter(agency=agency, effective_on__lte=on)
        .order_by("-effective_on")
        .first()
    )


def fee_in_force(*, agency: Agency, code: str, on: date) -> FeeItem | None:
    """The fee `code` as the schedule in force on `on` sets it (None if it lists no such fee)."""
    schedule = fee_schedule_in_force(agency=agency, on=on)
    if schedule is None:
        return None
    return schedule.items.filter(code=code).first()


def invoice_due_on(invoice: Invoice) -> date | None:
    """The last day to pay: the pack's payment period after the notice, rolled forward past a
    weekend or holiday, as the engine computes it. A cost recovery invoice uses the pack's
    cost recovery period (Town 10.02.280). Where the ordinance sets no payment deadline (San
    Clemente), the bill's own term (pack.yaml `billing.payment_term_days`, default 30 days),
    rolled forward likewise: a bill always says when it is due."""
    pack = invoice.agency.get_pack()
    spec = pack.actions.get("invoice")
    deadline = next((d for d in spec.deadlines if d.name == "payment"), None) if spec else None
    if deadline is None or deadline.add is None:
        days = timedelta(days=payment_terms(pack).term_days)
        return pack.calendar.roll_forward(invoice.noticed_on + days)
    period, roll = deadline.add, deadline.roll
    if invoice.kind == "cost_recovery" and COST_RECOVERY_PERIOD in pack.parameters:
        period = COST_RECOVERY_PERIOD
    try:
        duration = pack.params_on(invoice.noticed_on).duration(period)
    except ParameterNotInForce:
        return None
    return pack.calendar.add(invoice.noticed_on, duration, roll)


def invoice_balance(invoice: Invoice, on: date) -> Decimal:
    """What is still owed on `invoice` after the payments made and the voids and credits
    dated by `on`."""
    paid = invoice.payments.filter(paid_on__lte=on).aggregate(t=Sum("amount"))["t"] or ZERO
    adjusted = (
        invoice.adjustments.filter(adjusted_on__lte=on).aggregate(t=Sum("amount"))["t"] or ZERO
    )
    return invoice.total() - paid - adjusted


def account_balance(establishment: FoodServiceEstablishment, on: date) -> Decimal:
    """What the establishment owes on `on`: invoices noticed by then less payments made and
    voids and credits dated by then."""
    charged = InvoiceLine.objects.filter(
        invoice__establishment=establishment, invoice__noticed_on__lte=on
    ).aggregate(t=Sum("amount"))["t"]
    paid = Payment.objects.filter(invoice__establishment=establishment, paid_on__lte=on).aggregate(
        t=Sum("amount")
    )["t"]
    adjusted = InvoiceAdjustment.objects.filter(
        invoice__establishment=establishment, adjusted_on__lte=on
    ).aggregate(t=Sum("amount"))["t"]
    return (charged or ZERO) - (paid or ZERO) - (adjusted or ZERO)


@dataclass(frozen=True, slots=True)
class StatementLine:
    date: date
    kind: str  # "invoice", "payment", "void" or "credit"
    invoice: str  # the invoice code
    description: str
    charge: Decimal
    credit: Decimal
    balance: Decimal  # the running balance after this line
    due_on: datetime.date | None = None  # invoices only (`date` is a field here)
    reference: str = ""  # payments only: check or receipt number


def account_statement(establishment: FoodServiceEstablishment, on: date) -> list[StatementLine]:
    """The establishment's account up to `on`: its invoices, payments, voids and credits by
    date (an invoice before a payment, a payment before a void or credit, of the same day),
    each with the running balance."""
    return statement_of(loaded_invoices(establishment), on)


def loaded_invoices(establishment: FoodServiceEstablishment) -> list[Invoice]:
    """Every invoice of the establishment, newest first, with its lines, payments, voids and
    credits: four queries, whatever the number of invoices, from which an account's every
    figure is read (`account`)."""
    return list(
        Invoice.objects.filter(establishment=establishment)
        .select_related("agency", "incident")
        .prefetch_related("lines", "payments", "adjustments")
        .order_by("-noticed_on", "-code")
    )


def _charged(invoice: Invoice) -> Decimal:
    """The invoice's total from its loaded lines (Invoice.total without a query)."""
    return sum((line.amount for line in invoice.lines.all()), ZERO)


def statement_of(invoices: list[Invoice], on: date) -> list[StatementLine]:
    """The statement (account_statement) of the loaded `invoices` of one establishment."""
    entries: list[tuple[date, int, str, str, str, Any]] = []
    for i in invoices:
        if i.noticed_on <= on:
            description = i.description or i.get_kind_display()
            entries.append((i.noticed_on, 0, i.code, "invoice", description, i))
        entries += [
            (p.paid_on, 1, i.code, "payment", f"Payment ({p.get_method_display()})", p)
            for p in i.payments.all()
            if p.paid_on <= on
        ]
        entries += [
            (a.adjusted_on, 2, i.code, a.kind, f"{a.get_kind_display()}: {a.reason}", a)
            for a in i.adjustments.all()
            if a.adjusted_on <= on
        ]
    entries.sort(key=lambda e: (e[0], e[1], e[2], e[5].pk))
    balance = ZERO
    lines = []
    for day, _, code, kind, description, obj in entries:
        if kind == "invoice":
            charge = _charged(obj)
            balance += charge
            line = StatementLine(
                day, kind, code, description, charge, ZERO, balance, invoice_due_on(obj)
            )
        else:
            balance -= obj.amount
            line = StatementLine(
                day,
                kind,
                code,
                description,
                ZERO,
                obj.amount,
                balance,
                reference=getattr(obj, "reference", ""),
            )
        lines.append(line)
    return lines


@dataclass(frozen=True, slots=True)
class Account:
    """An establishment's account on a day, as its page shows it."""

    invoices: list[dict[str, Any]]  # account_invoices
    statement: list[StatementLine]
    balance: Decimal  # account_balance


def account(establishment: FoodServiceEstablishment, on: date) -> Account:
    """The establishment's invoices, statement and balance on `on`, from one load of its
    invoices (four queries, where each read alone costs three or four, and each invoice's
    balance three more)."""
    invoices = loaded_invoices(establishment)
    statement = statement_of(invoices, on)
    balance = statement[-1].balance if statement else ZERO
    return Account(invoice_rows(invoices, on), statement, balance)


def fee_schedules(agency: Agency) -> list[dict[str, Any]]:
    """The agency's fee schedules, newest first, each with its items and the last day it is
    in force (`until`, None for the newest)."""
    schedules = list(
        FeeSchedule.objects.filter(agency=agency)
        .prefetch_related("items")
        .order_by("-effective_on")
    )
    rows = []
    for newer, schedule in zip([None, *schedules], schedules, strict=False):
        until = newer.effective_on - timedelta(days=1) if newer else None
        rows.append({"schedule": schedule, "until": until, "items": list(schedule.items.all())})
    return rows


def account_invoices(establishment: FoodServiceEstablishment, on: date) -> list[dict[str, Any]]:
    """Each invoice of the establishment noticed by `on`, newest first, with its lines,
    payments, voids and credits, what is still owed and the last day to pay (invoice_rows)."""
    return invoice_rows(loaded_invoices(establishment), on)


def invoice_rows(invoices: list[Invoice], on: date) -> list[dict[str, Any]]:
    """The loaded `invoices` noticed by `on` (loaded_invoices), each with its lines, payments,
    voids and credits, its total, what is still owed on `on` (`balance`) and with everything
    on record counted (`owed`, invoice_owed), the last day to pay and whether it is void."""
    rows = []
    for i in invoices:
        if i.noticed_on > on:
            continue
        payments, adjustments = list(i.payments.all()), list(i.adjustments.all())
        total = _charged(i)
        credited = sum((a.amount for a in adjustments if a.adjusted_on <= on), ZERO)
        paid = sum((p.amount for p in payments if p.paid_on <= on), ZERO)
        every = sum((p.amount for p in payments), ZERO) + sum((a.amount for a in adjustments), ZERO)
        rows.append(
            {
                "invoice": i,
                "lines": list(i.lines.all()),
                "payments": payments,
                "adjustments": adjustments,
                "total": total,
                "balance": total - paid - credited,
                "owed": total - every,
                "due_on": invoice_due_on(i),
                "void": any(a.kind == "void" for a in adjustments),
            }
        )
    return rows


def case_invoices(
    establishment: FoodServiceEstablishment, action_codes: set[str], on: date
) -> list[dict[str, Any]]:
    """The invoices of the penalties ordered by these actions (an enforcement case's), or of
    their costs, with their total, the payments made by `on` and what is still due, in three
    queries."""
    invoices = (
        Invoice.objects.filter(establishment=establishment, enforcement_action__in=action_codes)
        .prefetch_related("lines", "payments")
        .order_by("noticed_on", "code")
    )
    out = []
    for invoice in invoices:
        total = sum((line.amount for line in invoice.lines.all()), Decimal(0))
        payments = [p for p in invoice.payments.all() if p.paid_on <= on]
        paid = sum((p.amount for p in payments), Decimal(0))
        out.append({"invoice": invoice, "total": total, "payments": payments, "due": total - paid})
    return out


def _invoice_findings(establishment: FoodServiceEstablishment, on: date) -> list[Finding]:
    """The engine's `fees.*` findings on the establishment's invoices on `on`.

    The case file holds the invoices and only what a case file requires besides; the
    establishment's closing is left out, since money outlives a closing (RULES.md section 2)
    and the engine reports no findings for an inactive establishment."""
    pack = establishment.agency.get_pack()
    if on < pack.effective:
        return []
    actions = invoice_actions([establishment.pk], on)[establishment.pk]
    if not actions:
        return []
    case = {
        "jurisdiction": pack.id,
        "as_of": on,
        "establishment": {
            "id": establishment.code,
            "opened_on": establishment.opened_on,
            "operator": {"name": establishment.name, "since": establishment.opened_on},
        },
        "enforcement": actions,
    }
    report = evaluate(parse_case(case), on)
    return [f for f in report.findings if f.rule.startswith("fees.")]


@dataclass(frozen=True, slots=True)
class Delinquency:
    invoice: str
    due: date | None
    since: date
    citation: str
    message: str


def delinquent_invoices(establishment: FoodServiceEstablishment, on: date) -> list[Delinquency]:
    """The invoices the engine finds delinquent on `on` (Town 10.02.360: unpaid after the
    payment deadline)."""
    return [
        Delinquency(f.subject, f.due, f.since, f.citation, f.message)
        for f in _invoice_findings(establishment, on)
        if f.rule == DELINQUENT and f.open
    ]


@dataclass(frozen=True, slots=True)
class RenewalBlock:
    """Whether the business license may not be renewed, and why; true when blocked."""

    blocked: bool
    reason: str = ""
    invoices: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return self.blocked


def business_licence_renewal_blocked(
    establishment: FoodServiceEstablishment, on: date
) -> RenewalBlock:
    """The Town's block: no business license is issued or renewed while a fee, charge or
    penalty is delinquent (10.02.360(B)). Truthy when blocked, with the reason."""
    return renewal_block(delinquent_invoices(establishment, on))


def money_standing(
    establishment: FoodServiceEstablishment, on: date
) -> tuple[list[Delinquency], RenewalBlock]:
    """The delinquent invoices on `on` and the business license block they make, from one
    evaluation (for pages that show both)."""
    late = delinquent_invoices(establishment, on)
    return late, renewal_block(late)


def renewal_block(late: list[Delinquency]) -> RenewalBlock:
    """The block 10.02.360(B) makes of the delinquent invoices `late`."""
    if not late:
        return RenewalBlock(False)
    listed = "; ".join(f"invoice {d.invoice} delinquent since {d.since}" for d in late)
    reason = (
        f"Delinquent ({late[0].citation}): {listed}. The business license is not issued or "
        "renewed until the debt is paid in full."
    )
    return RenewalBlock(True, reason, tuple(d.invoice for d in late))


LIEN_ELIGIBLE = "lien_eligible"


@dataclass(frozen=True, slots=True)
class LienEligibility:
    """When the engine says an unpaid penalty order may be made a lien (`on` None when it
    lists no such date: not final yet, or paid), and the section that says so."""

    action: str
    on: date | None
    citation: str


def lien_citation(pack) -> str:
    """The section that makes an unpaid penalty a lien, from the pack's penalty order."""
    spec = pack.actions.get("penalty_order")
    deadlines = spec.deadlines if spec else ()
    return next((d.citation for d in deadlines if d.name == LIEN_ELIGIBLE), "")


def lien_eligibility(
    establishment: FoodServiceEstablishment, action: str, on: date
) -> LienEligibility:
    """The engine's `lien_eligible` date of the penalty order `action` as of `on`."""
    for deadline in report_of(establishment, on).deadlines:
        if deadline.action == action and deadline.name == LIEN_ELIGIBLE:
            day = deadline.date.date() if hasattr(deadline.date, "date") else deadline.date
            return LienEligibility(action, day, deadline.citation)
    return LienEligibility(action, None, lien_citation(establishment.agency.get_pack()))


def penalty_orders(establishment: FoodServiceEstablishment):
    """The establishment's penalty orders that are owed, oldest first: an order replaced by
    the order deciding its appeal (`appeal_of`, RULES.md 12.8) is not."""
    from fogkeeper.enforcement.models import EnforcementAction

    orders = EnforcementAction.objects.filter(establishment=establishment, type="penalty_order")
    return orders.exclude(code__in=replaced_orders(establishment)).order_by("taken_on", "pk")


def costed_actions(establishment: FoodServiceEstablishment, pack) -> list:
    """The establishment's actions whose pack invoices costs of them (`costs:`) and that
    record one, oldest first."""
    from fogkeeper.enforcement.models import EnforcementAction

    types = [t for t, spec in pack.actions.items() if spec.costs]
    actions = EnforcementAction.objects.filter(establishment=establishment, type__in=types)
    return [
        a
        for a in actions.order_by("taken_on", "pk")
        if any(a.effective_fields().get(f) for f in pack.actions[a.type].costs)
    ]


def replaced_orders(establishment: FoodServiceEstablishment) -> set[str]:
    """The codes of the penalty orders another order replaced on appeal (RULES.md 12.8)."""
    from fogkeeper.enforcement.models import EnforcementAction

    rows = EnforcementAction.objects.filter(
        establishment=establishment, type="penalty_order", fields__has_key="appeal_of"
    ).values_list("fields", flat=True)
    return {f["appeal_of"] for f in rows}


def penalty_owed(establishment: FoodServiceEstablishment, action, on: date) -> Decimal:
    """What is still owed on `on` of the penalty order `action` (an EnforcementAction): what
    its penalty invoices still owe, or, before it is invoiced, its amount unless a payment of
    it is on record by then."""
    invoices = Invoice.objects.filter(
        establishment=establishment, kind="penalty", enforcement_action=action.code
    )
    if invoices.exists():
        return sum((invoice_balance(i, on) for i in invoices), ZERO)
    fields = action.effective_fields()
    paid_on = fields.get("paid_on")
    if paid_on and date.fromisoformat(str(paid_on)[:10]) <= on:
        return ZERO
    return Decimal(str(fields.get("amount") or 0)).quantize(Decimal("0.01"))


def invoice_owed(invoice: Invoice) -> Decimal:
    """What is still owed on `invoice`, every payment, void and credit on record counted."""
    paid = invoice.payments.aggregate(t=Sum("amount"))["t"] or ZERO
    adjusted = invoice.adjustments.aggregate(t=Sum("amount"))["t"] or ZERO
    return invoice.total() - paid - adjusted


def next_invoice_code(agency: Agency) -> str:
    """The next free invoice number of the agency: INV-<n+1> after the highest INV-<n>."""
    numbers = [
        int(code.removeprefix("INV-"))
        for code in Invoice.objects.filter(agency=agency, code__startswith="INV-").values_list(
            "code", flat=True
        )
        if code.removeprefix("INV-").isdigit()
    ]
    return f"INV-{max(numbers, default=0) + 1}"

"""Invoices as the engine reads them: case-file enforcement actions of type `invoice`
(RULES.md section 10), for a batch of establishments in two queries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date
from decimal import Decimal

from django.db.models import Sum

from .models import Invoice, InvoiceAdjustment, Payment


def _invoices(ids: list[int], as_of: date) -> tuple[list[tuple], dict[int, date]]:
    """Rows (pk, establishment pk, code, kind, noticed_on, action, total) of the invoices of
    the establishments, and the date each was settled in full by `as_of`, if it was: paid,
    or voided or credited (what a void or credit takes off is no longer owed)."""
    rows = list(
        Invoice.objects.filter(establishment_id__in=ids)  # type: ignore[no-redef, misc]  # plugin: `total` is a property too
        .annotate(total=Sum("lines__amount"))
        .order_by("establishment_id", "noticed_on", "code")
        .values_list(
            "pk", "establishment_id", "code", "kind", "noticed_on", "enforcement_action", "total"
        )
    )
    totals = {row[0]: row[6] or Decimal(0) for row in rows}
    paid: dict[int, Decimal] = defaultdict(Decimal)
    paid_on: dict[int, date] = {}
    for invoice_id, day, amount in sorted(_settlements(totals, as_of)):
        paid[invoice_id] += amount
        if invoice_id not in paid_on and paid[invoice_id] >= totals[invoice_id]:
            paid_on[invoice_id] = day
    return rows, paid_on


def _settlements(invoice_ids, as_of: date) -> list[tuple[int, date, Decimal]]:
    """(invoice pk, date, amount) of every payment, void and credit of the invoices by
    `as_of`: what reduces what is owed on them, in one query."""
    # no ORDER BY inside the UNION: SQLite refuses one in a compound statement's parts
    payments = Payment.objects.filter(invoice_id__in=invoice_ids, paid_on__lte=as_of).order_by()
    adjustments = InvoiceAdjustment.objects.filter(
        invoice_id__in=invoice_ids, adjusted_on__lte=as_of
    ).order_by()
    return list(
        payments.values_list("invoice_id", "paid_on", "amount").union(
            adjustments.values_list("invoice_id", "adjusted_on", "amount"), all=True
        )
    )


def money_actions(
    establishment_ids: Iterable[int], as_of: date
) -> tuple[dict[int, list[dict]], dict[int, dict[str, str]]]:
    """What the engine needs of billing, per establishment pk (every one asked for), in two
    queries: the invoices as `invoice` actions, `{id, type, noticed_on, amount, paid_on?}`,
    JSON-ready, with `paid_on` the day the invoice was settled in full by payments, voids and
    credits (left out when it was not by `as_of`); and the penalty orders (by action code)
    whose penalty invoices were all settled in full by `as_of`, with the day the last of them
    was (a penalty order's `paid_on`, from which the engine decides lien eligibility).
    A penalty invoice is an `invoice` action too: penalties are delinquent 45 days after their
    notice like fees (Town 10.02.360(A), "all fees, charges and penalties"), besides the
    penalty order's own payment deadline."""
    ids = sorted(set(establishment_ids))
    invoices: dict[int, list[dict]] = {pk: [] for pk in ids}
    penalties: dict[int, dict[str, str]] = {pk: {} for pk in ids}
    if not ids:
        return invoices, penalties
    rows, paid_on = _invoices(ids, as_of)
    by_action: dict[tuple[int, str], list[date | None]] = defaultdict(list)
    for pk, est_id, code, kind, noticed_on, action_code, total in rows:
        if kind == "penalty":
            by_action[est_id, action_code].append(paid_on.get(pk))
        action = {
            "id": code,
            "type": "invoice",
            "noticed_on": noticed_on.isoformat(),
            "amount": float(total or 0),
        }
        if pk in paid_on:
            action["paid_on"] = paid_on[pk].isoformat()
        invoices[est_id].append(action)
    for (est_id, action_code), days in by_action.items():
        if None not in days:
            penalties[est_id][action_code] = max(d for d in days if d is not None).isoformat()
    return invoices, penalties


def invoice_actions(establishment_ids: Iterable[int], as_of: date) -> dict[int, list[dict]]:
    """The invoices of `money_actions`."""
    return money_actions(establishment_ids, as_of)[0]


def penalties_paid_on(establishment_ids: Iterable[int], as_of: date) -> dict[int, dict[str, str]]:
    """The penalty orders paid in full, of `money_actions`."""
    return money_actions(establishment_ids, as_of)[1]

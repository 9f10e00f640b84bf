"""Writes of money: fee schedules, invoices, payments, voids and credits, liens and their
releases. Each validates everything first and
raises one `ValidationError` keyed by field, then saves with its audit rows in one
transaction: a refused write changes nothing."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import transaction

from fogkeeper.audit.services import audit_record, snapshot
from fogkeeper.incidents.models import Incident
from fogkeeper.locks import hold_row
from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    check_model,
    check_not_future,
    check_order,
    refuse,
)

from .models import (
    ZERO,
    FeeItem,
    FeeSchedule,
    Invoice,
    InvoiceAdjustment,
    InvoiceLine,
    Lien,
    LienRelease,
    Payment,
)
from .selectors import (
    fee_in_force,
    invoice_owed,
    lien_eligibility,
    next_invoice_code,
    penalty_owed,
    replaced_orders,
)

ITEM_FIELDS = {"code", "description", "amount", "basis", "citation"}
LINE_FIELDS = {"description", "amount", "citation"}


def _audit(action: str, obj: Any, actor: Actor, agency: Agency, **kw: Any) -> None:
    audit_record(action=action, obj=obj, actor=actor, agency=agency, **kw)


def _check_money(errors: Errors, field: str, value: Any) -> None:
    """Money is a `Decimal` (or a whole number): a float is refused, since 0.1 + 0.2 is not
    0.3 in binary."""
    if isinstance(value, bool) or not isinstance(value, Decimal | int):
        add_error(errors, field, f"An amount of money is a Decimal, not {type(value).__name__}.")
    elif not Decimal(value).is_finite():
        add_error(errors, field, f"Not an amount of money: {value}.")


def fee_schedule_set(
    *,
    agency: Agency,
    effective_on: date,
    items: Sequence[dict[str, Any]],
    resolution: str = "",
    actor: Actor = None,
) -> FeeSchedule:
    """The agency's fees from `effective_on` on: a new schedule, which replaces the one in
    force for dates from then. `items`: dicts of `code`, `description`, `amount` (a Decimal;
    None for a charge at actual cost), `basis` and `citation`."""
    schedule = FeeSchedule(agency=agency, effective_on=effective_on, resolution=resolution)
    errors: Errors = {}
    check_model(schedule, errors)
    if not items:
        add_error(errors, "items", "A fee schedule lists at least one fee.")
    fees: list[FeeItem] = []
    seen: set[str] = set()
    for i, raw in enumerate(items):
        where = f"items[{i}]"
        unknown = set(raw) - ITEM_FIELDS
        if unknown:
            add_error(errors, where, f"unknown fields: {', '.join(sorted(unknown))}.")
            continue
        item = FeeItem(schedule=schedule, **raw)
        if item.code in seen:
            add_error(errors, where, f"code: {item.code} is listed twice.")
        seen.add(item.code)
        if item.amount is None:
            if item.basis != "actual_cost":
                add_error(errors, where, "amount: required unless charged at actual cost.")
        elif item.basis == "actual_cost":
            add_error(errors, where, "amount: a charge at actual cost has no fixed amount.")
        else:
            _check_money(errors, where, item.amount)
            if not errors.get(where) and item.amount < 0:
                add_error(errors, where, f"amount: cannot be negative (got {item.amount}).")
        check_model(item, errors, exclude=["schedule"], prefix=where)
        fees.append(item)
    refuse(errors)
    with transaction.atomic():
        schedule.save()
        for item in fees:
            item.schedule = schedule
            item.save()
        after = {
            "effective_on": effective_on.isoformat(),
            "resolution": resolution,
            "items": [
                {
                    "code": f.code,
                    "description": f.description,
                    "amount": None if f.amount is None else str(f.amount),
                    "basis": f.basis,
                    "citation": f.citation,
                }
                for f in fees
            ],
        }
        _audit("fee_schedule.set", schedule, actor, agency, after=after)
    return schedule


def invoice_issue(
    *,
    establishment: FoodServiceEstablishment,
    code: str,
    kind: str,
    noticed_on: date,
    fees: Sequence[str] = (),
    lines: Sequence[dict[str, Any]] = (),
    description: str = "",
    incident: Incident | None = None,
    enforcement_action: str = "",
    actor: Actor = None,
) -> Invoice:
    """An invoice noticed on `noticed_on`: one line for each code in `fees` (the fee in force
    that day, from the agency's schedule), then the explicit `lines` (dicts of `description`,
    `amount` as a Decimal, and optionally `citation`), e.g. costs at actual cost.

    A cost recovery invoice names the `incident` (Town 10.02.280); a penalty invoice the
    `enforcement_action` code of the penalty order. A blank `code` gives the agency's next
    free invoice number (`INV-<n>`), read under the agency's lock so that invoices issued at
    once get numbers of their own; a `code` taken meanwhile is refused naming the next one."""
    agency = establishment.agency
    invoice = Invoice(
        agency=agency,
        establishment=establishment,
        code=code,
        kind=kind,
        noticed_on=noticed_on,
        description=description,
        incident=incident,
        enforcement_action=enforcement_action,
    )
    errors: Errors = {}
    _check_number_free(errors, agency, code)
    # The number's uniqueness is _check_number_free's (in words, naming the next free one,
    # even when another page takes it meanwhile), each kind's links _check_links's.
    check_model(invoice, errors, exclude=["code"] if not code else (), constraints=False)
    new_lines = _fee_lines(errors, agency, fees, noticed_on) + _explicit_lines(errors, lines)
    if not fees and not lines:
        add_error(errors, "lines", "An invoice has at least one line.")
    elif not errors and sum((line.amount for line in new_lines), ZERO) <= 0:
        add_error(errors, "lines", "An invoice is for more than $0.")
    _check_links(errors, invoice)
    refuse(errors)

    with transaction.atomic():
        lock_invoices(agency)
        invoice.code = invoice.code or next_invoice_code(agency)
        _check_number_free(errors, agency, invoice.code)
        refuse(errors)
        invoice.save()
        for position, line in enumerate(new_lines, start=1):
            line.invoice = invoice
            line.position = position
            line.save()
        after = {
            **snapshot(invoice),
            "lines": [
                {"description": li.description, "amount": str(li.amount), "citation": li.citation}
                for li in new_lines
            ],
        }
        _audit("invoice.issue", invoice, actor, agency, after=after)
    reevaluate_on_commit(establishment)
    return invoice


def _fee_lines(
    errors: Errors, agency: Agency, fees: Sequence[str], noticed_on: date
) -> list[InvoiceLine]:
    """A line for each fee code: the fee in force on `noticed_on`, from the schedule."""
    new_lines: list[InvoiceLine] = []
    for i, fee_code in enumerate(fees):
        item = fee_in_force(agency=agency, code=fee_code, on=noticed_on)
        if item is None:
            add_error(
                errors, f"fees[{i}]", f"{agency} has no fee {fee_code} in force on {noticed_on}."
            )
        elif item.amount is None:
            add_error(
                errors,
                f"fees[{i}]",
                f"{fee_code} is charged at actual cost: give the amount as a line.",
            )
        else:
            new_lines.append(
                InvoiceLine(
                    fee_item=item,
                    description=item.description,
                    amount=item.amount,
                    citation=item.citation,
                )
            )
    return new_lines


def _explicit_lines(errors: Errors, lines: Sequence[dict[str, Any]]) -> list[InvoiceLine]:
    """The lines given as dicts (description, amount, citation), checked field by field."""
    new_lines: list[InvoiceLine] = []
    for i, raw in enumerate(lines):
        where = f"lines[{i}]"
        unknown = set(raw) - LINE_FIELDS
        if unknown:
            add_error(errors, where, f"unknown fields: {', '.join(sorted(unknown))}.")
            continue
        _check_money(errors, where, raw.get("amount"))
        if errors.get(where):
            continue
        line = InvoiceLine(**raw)
        if line.amount < 0:
            add_error(errors, where, f"amount: cannot be negative (got {line.amount}).")
        check_model(line, errors, exclude=["invoice", "position"], prefix=where)
        new_lines.append(line)
    return new_lines


def _check_links(errors: Errors, invoice: Invoice) -> None:
    """A cost recovery invoice names its incident, a penalty invoice its penalty order, and
    no other kind names either."""
    kind, incident, establishment = invoice.kind, invoice.incident, invoice.establishment
    noticed_on, enforcement_action = invoice.noticed_on, invoice.enforcement_action
    if kind == "cost_recovery" and incident is None:
        add_error(errors, "incident", "A cost recovery invoice names the overflow it recovers.")
    if kind != "cost_recovery" and incident is not None:
        add_error(errors, "incident", "Only a cost recovery invoice names an incident.")
    if incident is not None:
        if incident.establishment_id != establishment.pk:
            add_error(errors, "incident", f"{incident} is not attributed to {establishment}.")
        check_order(errors, "noticed_on", noticed_on, incident.date, f"incident {incident.code}")
    if kind == "penalty" and not enforcement_action:
        add_error(errors, "enforcement_action", "A penalty invoice names the penalty order.")
    elif kind == "penalty" and enforcement_action in replaced_orders(establishment):
        add_error(
            errors,
            "enforcement_action",
            f"{enforcement_action} was replaced by the order that decided its appeal: invoice "
            "that order instead.",
        )
    if kind == "action_costs" and not enforcement_action:
        add_error(errors, "enforcement_action", "An invoice of costs names the action they are of.")
    if kind not in ("penalty", "action_costs") and enforcement_action:
        add_error(
            errors,
            "enforcement_action",
            "Only a penalty invoice or an invoice of an action's costs names an action.",
        )


def _check_number_free(errors: Errors, agency: Agency, code: str) -> None:
    if code and Invoice.objects.filter(agency=agency, code=code).exists():
        add_error(
            errors,
            "code",
            f"Invoice number {code} is taken by another invoice: use {next_invoice_code(agency)}.",
        )


def lock_invoices(agency: Agency) -> None:
    """Until the transaction ends, no other writer that calls this may number an invoice of
    `agency`: the number is checked (or the next one read) and then stored."""
    hold_row(agency)


def payment_record(
    *,
    invoice: Invoice,
    paid_on: date,
    amount: Decimal,
    method: str,
    reference: str = "",
    today: date | None = None,
    actor: Actor = None,
) -> Payment:
    """A payment of `amount` against `invoice`, in part or in full, received not after `today`
    (by default the agency's today). A payment above what is still owed is refused."""
    payment = Payment(
        invoice=invoice, paid_on=paid_on, amount=amount, method=method, reference=reference
    )
    errors: Errors = {}
    _check_money(errors, "amount", amount)
    if not errors and amount <= 0:
        add_error(errors, "amount", f"Must be more than 0 (got {amount}).")
    check_model(payment, errors, exclude=["amount"] if errors else ())
    check_order(errors, "paid_on", paid_on, invoice.noticed_on, f"the notice of {invoice}")
    check_not_future(errors, today or invoice.agency.today(), paid_on=paid_on)
    refuse(errors)
    with transaction.atomic():
        # The invoice row is locked so that two payments cannot both pass the balance check.
        Invoice.objects.select_for_update().filter(pk=invoice.pk).first()
        owed = invoice_owed(invoice)
        if invoice.adjustments.filter(kind="void").exists():
            add_error(errors, "amount", f"{invoice} is void: nothing is paid on it.")
            refuse(errors)
        if amount > owed:
            add_error(
                errors,
                "amount",
                f"${amount} is more than the ${owed} still owed on {invoice}: "
                "an overpayment is refused.",
            )
            refuse(errors)
        payment.save()
        _audit("payment.record", payment, actor, invoice.agency)
    reevaluate_on_commit(invoice.establishment)
    return payment


def _check_adjustment(errors: Errors, invoice: Invoice, on: date, reason: str) -> None:
    """What a void and a credit both require: a reason, a date not before the notice nor
    before the last payment, and an invoice not void already."""
    if not (reason or "").strip():
        add_error(errors, "reason", "Say why: the reason is kept with the invoice.")
    check_order(errors, "on", on, invoice.noticed_on, f"the notice of {invoice}")
    last = invoice.payments.order_by("-paid_on").first()
    if last is not None:
        check_order(errors, "on", on, last.paid_on, f"the payment of ${last.amount} on it")
    if invoice.adjustments.filter(kind="void").exists():
        add_error(errors, "invoice", f"{invoice} is void already: nothing is recorded after it.")


def _adjust(
    invoice: Invoice, kind: str, on: date, amount: Decimal | None, reason: str, actor: Actor
):
    """Save a void or credit of `amount`, with its audit row; refused when it is more than
    what is still owed, checked with the invoice locked."""
    adjustment = InvoiceAdjustment(
        invoice=invoice,
        kind=kind,
        adjusted_on=on,
        amount=amount,
        reason=reason.strip(),
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    with transaction.atomic():
        Invoice.objects.select_for_update().filter(pk=invoice.pk).first()
        owed = invoice_owed(invoice)
        errors: Errors = {}
        if owed <= 0:
            add_error(errors, "amount", f"Nothing is owed on {invoice}: nothing to {kind}.")
        elif amount is not None and amount > owed:
            add_error(
                errors,
                "amount",
                f"${amount} is more than the ${owed} still owed on {invoice}: a credit may "
                "not exceed what is owed.",
            )
        refuse(errors)
        if kind == "void":
            adjustment.amount = owed
        adjustment.save()
        _audit(f"invoice.{kind}", adjustment, actor, invoice.agency, reason=adjustment.reason)
    reevaluate_on_commit(invoice.establishment)
    return adjustment


def invoice_void(*, invoice: Invoice, on: date, reason: str, actor: Actor = None):
    """Void `invoice` on `on`: a new record crediting whatever is still owed on it, after
    which nothing more is paid, voided or credited on it. The invoice itself is kept."""
    errors: Errors = {}
    _check_adjustment(errors, invoice, on, reason)
    refuse(errors)
    return _adjust(invoice, "void", on, None, reason, actor)


def invoice_credit(
    *, invoice: Invoice, on: date, amount: Decimal, reason: str, actor: Actor = None
) -> InvoiceAdjustment:
    """Credit `amount` of `invoice` on `on`: a new record, no more than what is still owed."""
    errors: Errors = {}
    _check_money(errors, "amount", amount)
    if not errors and amount <= 0:
        add_error(errors, "amount", f"Must be more than 0 (got {amount}).")
    _check_adjustment(errors, invoice, on, reason)
    refuse(errors)
    return _adjust(invoice, "credit", on, amount, reason, actor)


def _lien_order(errors: Errors, establishment, penalty_order: str, invoice: Invoice | None):
    """The penalty order a lien is for, named by its code or by its penalty invoice."""
    from fogkeeper.enforcement.models import EnforcementAction

    if invoice is not None:
        if invoice.establishment_id != establishment.pk or invoice.kind != "penalty":
            add_error(errors, "invoice", f"{invoice} is not a penalty invoice of {establishment}.")
            return None
        penalty_order = invoice.enforcement_action
    order = EnforcementAction.objects.filter(
        establishment=establishment, type="penalty_order", code=penalty_order
    ).first()
    if order is None:
        add_error(errors, "penalty_order", f"{establishment} has no penalty order {penalty_order}.")
    return order


def _check_lien(errors: Errors, establishment, order, recorded_on: date, amount: Decimal) -> None:
    """A lien only on or after the engine's lien-eligible date, for no more than is owed,
    and one at a time for an order."""
    eligible = lien_eligibility(establishment, order.code, recorded_on)
    if eligible.on is None:
        add_error(
            errors,
            "recorded_on",
            f"{order.code} is not eligible for a lien on {recorded_on} ({eligible.citation}): "
            "a penalty becomes a lien only when it is unpaid after the order is final.",
        )
    elif recorded_on < eligible.on:
        add_error(
            errors,
            "recorded_on",
            f"A lien for {order.code} may be recorded on or after {eligible.on} "
            f"({eligible.citation}), not on {recorded_on}.",
        )
    owed = penalty_owed(establishment, order, recorded_on)
    if owed <= 0:
        add_error(
            errors,
            "amount",
            f"Nothing is owed on {order.code} on {recorded_on}: no lien ({eligible.citation}).",
        )
    elif not errors.get("amount") and amount > owed:
        add_error(errors, "amount", f"${amount} is more than the ${owed} owed on {order.code}.")
    held = Lien.objects.filter(
        establishment=establishment, enforcement_action=order.code, release__isnull=True
    ).first()
    if held is not None:
        add_error(
            errors,
            "penalty_order",
            f"Lien {held.document_number} for {order.code} is recorded and not released.",
        )


def lien_record(
    *,
    establishment: FoodServiceEstablishment,
    recorded_on: date,
    amount: Decimal,
    document_number: str,
    penalty_order: str = "",
    invoice: Invoice | None = None,
    actor: Actor = None,
) -> Lien:
    """A lien for the unpaid penalty of a penalty order (named by its code, or by its penalty
    `invoice`), recorded on `recorded_on` as document `document_number`: refused before the
    engine's lien-eligible date (SC 13.30.080(I)(9); Town 10.02.330(I)) or when nothing is
    owed."""
    errors: Errors = {}
    _check_money(errors, "amount", amount)
    if not errors and amount <= 0:
        add_error(errors, "amount", f"Must be more than 0 (got {amount}).")
    order = _lien_order(errors, establishment, penalty_order, invoice)
    check_not_future(errors, establishment.agency.today(), recorded_on=recorded_on)
    lien = Lien(
        agency=establishment.agency,
        establishment=establishment,
        enforcement_action=order.code if order else penalty_order,
        invoice=invoice,
        recorded_on=recorded_on,
        amount=amount,
        document_number=(document_number or "").strip(),
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    check_model(lien, errors, exclude=["amount"] if errors.get("amount") else ())
    if order is not None:
        _check_lien(errors, establishment, order, recorded_on, amount)
    refuse(errors)
    with transaction.atomic():
        lien.save()
        _audit("lien.record", lien, actor, establishment.agency)
    reevaluate_on_commit(establishment)
    return lien


def lien_release(
    *, lien: Lien, released_on: date, document_number: str, actor: Actor = None
) -> LienRelease:
    """The release of `lien`, recorded on `released_on` as document `document_number`."""
    release = LienRelease(
        lien=lien,
        released_on=released_on,
        document_number=(document_number or "").strip(),
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    errors: Errors = {}
    with transaction.atomic():
        list(Lien.objects.select_for_update().filter(pk=lien.pk).values("pk"))  # one release
        if LienRelease.objects.filter(lien=lien).exists():
            add_error(errors, "lien", f"{lien} is released already.")
        else:
            check_model(release, errors)
        check_order(
            errors, "released_on", released_on, lien.recorded_on, f"the recording of {lien}"
        )
        refuse(errors)
        release.save()
        _audit("lien.release", release, actor, lien.agency)
    reevaluate_on_commit(lien.establishment)
    return release

"""Civil penalties a court imposed for a violation, and the bars between them and the
administrative penalties (RULES 11.3)."""

from __future__ import annotations

import importlib
from datetime import date
from decimal import Decimal

from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import Actor, Errors, add_error, refuse

from ..models import COURT_JUDGMENT, CaseViolation, EnforcementAction, EnforcementCase
from .actions import _save_action
from .shared import _cap_problem, check_done, day_of, plain_fields


def court_judgment_record(
    *,
    case: EnforcementCase,
    code: str,
    entered_on: date,
    violation: CaseViolation,
    amount: Decimal,
    days: int | None = None,
    occurrences: int | None = None,
    gallons: Decimal | None = None,
    violation_days: int | None = None,
    penalty_class: str = "",
    actor: Actor = None,
) -> EnforcementAction:
    """Civil penalties a court imposed for a violation, in a court class of the pack
    (`judicial`; the only one when `penalty_class` is not given), with the quantity in its
    cap's unit. No administrative penalty for the violation after this (where the pack bars
    it, `procedure.judicial_bar`). Refused above the class cap, and where the pack bars it
    (`procedure.administrative_bar`, Town 10.02.340) for a violation whose administrative
    penalties were recovered: a penalty order for it paid in full on or before `entered_on`
    (its `paid_on`, recorded on the order or from its penalty invoices paid in billing)."""
    establishment = case.establishment
    pack = establishment.agency.get_pack()
    errors: Errors = {}
    check_done(errors, establishment, entered_on=entered_on)
    court = pack.court_classes()
    if not penalty_class and len(court) == 1:
        penalty_class = next(iter(court))
    if penalty_class not in court:
        add_error(
            errors,
            "penalty_class",
            f"{penalty_class or 'A class'!r} is not a court penalty class of {pack.id} "
            f"({', '.join(sorted(court)) or 'none'}).",
        )
        refuse(errors)
    unit = court[penalty_class]
    given = {
        k: v
        for k, v in {
            "days": days,
            "occurrences": occurrences,
            "gallons": gallons,
            "violation_days": violation_days,
        }.items()
        if v is not None
    }
    for other in given:
        if other != unit:
            add_error(errors, other, f"class {penalty_class} is counted in {unit}, not {other}.")
    if unit not in given:
        add_error(errors, unit, f"required: class {penalty_class} is counted in {unit}.")
    refuse(errors)
    cap = pack.penalty_cap(penalty_class, entered_on)
    problem = _cap_problem(pack, penalty_class, given, amount, entered_on)
    if problem:
        add_error(errors, "amount", problem)
    if violation.case_id != case.pk:
        add_error(errors, "violation", f"{violation.code} belongs to another case.")
    bar = pack.procedure.get("administrative_bar")
    recovered = _penalties_recovered(violation, entered_on) if bar else []
    if recovered:
        order, paid_on = recovered[0]
        add_error(
            errors,
            "violation",
            f"{bar}: no judicial penalty for {violation.code}: its administrative penalties "
            f"were recovered ({order.code} paid on {paid_on}).",
        )
    judgment = EnforcementAction(
        case=case,
        establishment=establishment,
        code=code,
        type=COURT_JUDGMENT,
        level="court",
        taken_on=entered_on,
        cites=cap.reference if cap else "",
        violation=violation,
        fields={
            "entered_on": entered_on.isoformat(),
            "amount": str(amount),
            "class": penalty_class,
            **plain_fields(given),
        },
    )
    _save_action(judgment, errors, actor, [])
    reevaluate_on_commit(case.establishment)
    return judgment


def _penalties_recovered(
    violation: CaseViolation, on: date
) -> list[tuple[EnforcementAction, date]]:
    """The penalty orders for `violation` paid in full by `on`, with the day: the order's
    `paid_on` (a fact), else the day its penalty invoices were paid in full in billing."""
    orders = list(violation.actions.filter(type="penalty_order").order_by("taken_on", "pk"))
    if not orders:
        return []
    billed = _penalties_paid_in_billing(violation.case.establishment, on)
    out = []
    for order in orders:
        paid = order.effective_fields().get("paid_on") or billed.get(order.code)
        if paid and day_of(paid) <= on:
            out.append((order, day_of(paid)))
    return out


def _penalties_paid_in_billing(establishment: FoodServiceEstablishment, on: date) -> dict:
    try:
        billing = importlib.import_module("fogkeeper.billing.casefiles")
    except ModuleNotFoundError as e:
        if e.name not in ("fogkeeper.billing", "fogkeeper.billing.casefiles"):
            raise
        return {}
    return billing.penalties_paid_on([establishment.pk], on).get(establishment.pk, {})

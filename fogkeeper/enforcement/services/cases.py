"""Opening an enforcement case and adding the violations it is about."""

from __future__ import annotations

from datetime import date

from django.db import transaction

from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import Actor, Errors, add_error, check_model, refuse

from ..codes import check_code_free, lock_codes
from ..models import CLOSURE, CaseViolation, EnforcementAction, EnforcementCase
from .actions import _save_action
from .shared import _audit, check_done

# why a manager closes a case, as the page says it
CLOSING_REASONS = {
    "settled": "Settled",
    "withdrawn": "Withdrawn",
    "opened_in_error": "Opened in error",
}


def case_open(
    *,
    establishment: FoodServiceEstablishment,
    code: str,
    opened_on: date,
    actor: Actor = None,
) -> EnforcementCase:
    case = EnforcementCase(establishment=establishment, code=code, opened_on=opened_on)
    if getattr(actor, "is_authenticated", False):
        case.opened_by = actor
    errors: Errors = {}
    with transaction.atomic():
        lock_codes(establishment)
        check_code_free(errors, EnforcementCase, establishment, code)
        check_model(case, errors)
        refuse(errors)
        case.save()
        _audit("case_open", case, establishment, actor)
    reevaluate_on_commit(establishment)
    return case


def violation_add(
    *,
    case: EnforcementCase,
    code: str,
    rule: str,
    subject: str,
    since: date,
    actor: Actor = None,
) -> CaseViolation:
    """A violation the case is about: an engine rule or a checklist item (its citation from
    the pack)."""
    pack = case.establishment.agency.get_pack()
    errors: Errors = {}
    if rule not in pack.rules and rule not in pack.checklist:
        add_error(errors, "rule", f"{rule!r} is not a rule or checklist item of {pack.id}.")
    refuse(errors)
    violation = CaseViolation(
        case=case,
        code=code,
        rule=rule,
        subject=subject,
        since=since,
        citation=pack.citation(rule),
    )
    check_model(violation, errors)
    refuse(errors)
    with transaction.atomic():
        violation.save()
        _audit("violation_add", violation, case.establishment, actor)
    reevaluate_on_commit(case.establishment)
    return violation


def case_close(
    *,
    case: EnforcementCase,
    code: str,
    closed_on: date,
    reason: str,
    note: str = "",
    actor: Actor = None,
) -> EnforcementAction:
    """The manager closes `case` on `closed_on` for a `reason` (settled, withdrawn, opened
    in error), an act on the case like any other: nothing more is taken on it, and its dates
    leave the legal calendar."""
    establishment = case.establishment
    errors: Errors = {}
    if reason not in CLOSING_REASONS:
        add_error(errors, "reason", f"Give the reason: {', '.join(CLOSING_REASONS.values())}.")
    if reason == "settled" and not (note or "").strip():
        add_error(errors, "note", "Say what the settlement provides.")
    check_done(errors, establishment, closed_on=closed_on)
    closed = case.actions.filter(type=CLOSURE).first()
    if closed is not None:
        add_error(errors, "closed_on", f"Case {case.code} was closed on {closed.taken_on}.")
    last = case.actions.order_by("-taken_on").first()
    floor = max(case.opened_on, last.taken_on) if last else case.opened_on
    if closed_on < floor:
        add_error(
            errors,
            "closed_on",
            f"Case {case.code} was opened or last acted on on {floor}; it closes on or after "
            f"that day (asked {closed_on}).",
        )
    refuse(errors)
    closure = EnforcementAction(
        case=case,
        establishment=establishment,
        code=code,
        type=CLOSURE,
        level="manager",
        taken_on=closed_on,
        cites=establishment.agency.get_pack().procedure.get("citation", ""),
        fields={"closed_on": closed_on.isoformat(), "reason": reason, "note": note.strip()},
    )
    _save_action(closure, errors, actor, [])
    reevaluate_on_commit(case.establishment)
    return closure

"""Suspension, revocation and the denial of a renewal, as the final decision orders (RULES.md
11.7, 11.8), and from the enforcement decision that orders them."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction

from fogkeeper.audit.services import snapshot
from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_model,
    check_order,
    refuse,
)

from ..models import Permit
from .shared import _check_open, _title


def _decide(permit: Permit, changes: dict[str, Any], action: str, actor: Actor, reason: str):
    errors: Errors = {}
    before = snapshot(permit)
    for name, value in changes.items():
        setattr(permit, name, value)
    check_model(permit, errors)
    refuse(errors)
    with transaction.atomic():
        permit.save()
        audit(action, permit, actor, before=before, reason=reason)
    reevaluate_on_commit(permit.establishment)
    return permit


def permit_suspend(
    *,
    permit: Permit,
    suspended_from: date,
    suspended_until: date | None = None,
    reason: str = "",
    actor: Actor = None,
) -> Permit:
    """The permit suspended from `suspended_from` through `suspended_until` (inclusive;
    None: until further order): no right to discharge meanwhile."""
    errors: Errors = {}
    _check_open(errors, permit)
    check_order(errors, "suspended_from", suspended_from, permit.issued_on, "the permit's issue")
    check_order(errors, "suspended_until", suspended_until, suspended_from, "the suspension")
    refuse(errors)
    changes: dict[str, Any] = {
        "suspended_from": suspended_from,
        "suspended_until": suspended_until,
    }
    if suspended_until is None or suspended_until >= suspended_from:
        changes["status"] = "suspended"
    return _decide(permit, changes, "permit.suspend", actor, reason)


def permit_revoke(*, permit: Permit, revoked_on: date, reason: str = "", actor: Actor = None):
    """The permit revoked from `revoked_on`: from then the establishment holds no permit."""
    errors: Errors = {}
    _check_open(errors, permit)
    check_order(errors, "revoked_on", revoked_on, permit.issued_on, "the permit's issue")
    refuse(errors)
    changes = {"revoked_on": revoked_on, "status": "revoked", "ended_on": revoked_on}
    return _decide(permit, changes, "permit.revoke", actor, reason)


def permit_renewal_deny(*, permit: Permit, denied_on: date, reason: str = "", actor: Actor = None):
    """The renewal applied for is denied: a permit kept in effect by a timely application
    lapses that day (San Clemente 13.30.050(E))."""
    errors: Errors = {}
    _check_open(errors, permit)
    if permit.renewal_applied_on is None:
        add_error(errors, "denied_on", f"No renewal of {permit.number} was applied for.")
    else:
        check_order(errors, "denied_on", denied_on, permit.renewal_applied_on, "the application")
    refuse(errors)
    return _decide(permit, {"renewal_denied_on": denied_on}, "permit.renewal_deny", actor, reason)


# -- suspension and revocation from the enforcement decision --------------------------------

# what a decision orders (its `orders` field), and the notice it must decide (RULES.md 12.1)
ORDERS = {
    "suspend": ("suspension", "suspension_notice"),
    "revoke": ("revocation", "revocation_notice"),
}


def decisions_ordering(permit: Permit, what: str) -> list:
    """The written decisions of `permit`'s establishment that order it suspended or revoked
    (`what`: "suspend" or "revoke"): a decision whose `orders` says so and which decides a
    notice of that suspension or revocation, after its hearing or on appeal from the
    decision on it (RULES.md 12.1). An emergency discontinuance of service is not one
    (12.2)."""
    from fogkeeper.enforcement.models import EnforcementAction

    pack = permit.agency.get_pack()
    found = (
        EnforcementAction.objects.filter(
            establishment=permit.establishment, type__in=ordering_types(pack, what)
        )
        .select_related("case", "refers_to__refers_to__refers_to__refers_to")
        .prefetch_related("facts")
        .order_by("-taken_on", "-pk")
    )
    return [d for d in found if decision_orders(pack, d, what)]


def ordering_types(pack, what: str) -> list[str]:
    """The pack's action types whose `orders` field may order the permit suspended or revoked."""
    order = ORDERS[what][0]
    return [
        t
        for t, spec in pack.actions.items()
        if "orders" in spec.fields and order in spec.fields["orders"].choices
    ]


def decision_orders(pack, decision, what: str) -> bool:
    """Whether `decision` (with its facts, and the records it follows) is one of
    `decisions_ordering`: for a page that has the case's actions already."""
    order, notice = ORDERS[what]
    return (
        decision.type in ordering_types(pack, what)
        and decision.effective_fields().get("orders") == order
        and decision.refers_to is not None
        and decision.refers_to.traces_to(notice) is not None
    )


def _from_decision(errors: Errors, permit: Permit, decision, what: str) -> str:
    if decision is None or decision not in decisions_ordering(permit, what):
        pack = permit.agency.get_pack()
        notice = pack.actions.get(ORDERS[what][1])
        cite = f"{notice.citation}: " if notice and notice.citation else ""
        add_error(
            errors,
            "decision",
            f"{cite}No written decision on a notice of "
            f"{'suspension' if what == 'suspend' else 'revocation'} orders the "
            f"{_title(permit.establishment)} {'suspended' if what == 'suspend' else 'revoked'}"
            f"{f' ({decision.code} does not)' if decision is not None else ''}.",
        )
        return ""
    action = permit.agency.get_pack().actions.get(decision.type)
    title = action.title if action else decision.type.replace("_", " ")
    return f"{title} {decision.code} of case {decision.case.code}"


def _effective_from(errors: Errors, permit: Permit, decision, field: str, day: date) -> None:
    """The act takes effect on or after the decision, and, where the pack makes the decision
    final only when its time to appeal passes or the appeal is decided (its `appeal:`),
    upon that final order (Town 10.02.260(B), RULES.md 12.3)."""
    check_order(errors, field, day, decision.taken_on, "the decision")
    spec = permit.agency.get_pack().actions.get(decision.type)
    if spec is None or spec.appeal is None or errors:
        return
    from fogkeeper.enforcement.services import action_final_on

    final, why = action_final_on(decision, permit.agency.today())
    if final is None:
        add_error(errors, field, f"{why} Until then the permit is neither suspended nor revoked.")
    elif day < final:
        add_error(
            errors,
            field,
            f"{why} The order takes effect upon that final order, not before (asked {day}).",
        )


def permit_suspend_from_decision(
    *,
    permit: Permit,
    decision,
    suspended_from: date,
    suspended_until: date | None = None,
    actor: Actor = None,
) -> Permit:
    """The permit suspended as `decision` (an EnforcementAction) orders."""
    errors: Errors = {}
    named = _from_decision(errors, permit, decision, "suspend")
    if decision is not None and not errors:
        _effective_from(errors, permit, decision, "suspended_from", suspended_from)
    refuse(errors)
    return permit_suspend(
        permit=permit,
        suspended_from=suspended_from,
        suspended_until=suspended_until,
        reason=f"ordered by {named}",
        actor=actor,
    )


def permit_revoke_from_decision(
    *, permit: Permit, decision, revoked_on: date, actor: Actor = None
) -> Permit:
    """The permit revoked as `decision` (an EnforcementAction) orders."""
    errors: Errors = {}
    named = _from_decision(errors, permit, decision, "revoke")
    if decision is not None and not errors:
        _effective_from(errors, permit, decision, "revoked_on", revoked_on)
    refuse(errors)
    return permit_revoke(
        permit=permit, revoked_on=revoked_on, reason=f"ordered by {named}", actor=actor
    )

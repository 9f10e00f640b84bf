"""Suspension, revocation and the denial of a renewal, as the final decision orders (RULES.md
11.7, 11.8), and from the enforcement decision that orders them."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import Q

from fogkeeper.audit.services import snapshot
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
    changes = {"suspended_from": suspended_from, "suspended_until": suspended_until}
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

DECISIONS = ("manager_decision", "hearing_decision", "emergency_decision", "final_decision")
ORDERS = {"suspend": ("suspension_notice", "emergency_suspension"),
          "revoke": ("revocation_notice",)}  # fmt: skip


def decisions_ordering(permit: Permit, what: str) -> list:
    """The enforcement decisions of `permit`'s establishment that `what` ("suspend" or
    "revoke") the permit: a decision in a case whose notice proposed it, or an emergency
    suspension itself (RULES.md 11.8)."""
    from fogkeeper.enforcement.models import EnforcementAction

    notices = ORDERS[what]
    actions = EnforcementAction.objects.filter(establishment=permit.establishment)
    cases = actions.filter(type__in=notices).values("case_id")
    direct = [t for t in notices if t == "emergency_suspension"]
    found = actions.filter(
        Q(type__in=DECISIONS, case_id__in=cases) | Q(type__in=direct)
    ).select_related("case")
    return list(found.order_by("-taken_on", "-pk"))


def _from_decision(errors: Errors, permit: Permit, decision, what: str) -> str:
    if decision is None or decision not in decisions_ordering(permit, what):
        pack = permit.agency.get_pack()
        notice = pack.actions.get(ORDERS[what][0])
        cite = f" ({notice.citation})" if notice and notice.citation else ""
        add_error(
            errors,
            "decision",
            f"No enforcement decision orders the {_title(permit.establishment)} "
            f"{'suspended' if what == 'suspend' else 'revoked'}: it takes effect from the "
            f"decision on the notice{cite}.",
        )
        return ""
    action = permit.agency.get_pack().actions.get(decision.type)
    title = action.title if action else decision.type.replace("_", " ")
    return f"{title} {decision.code} of case {decision.case.code}"


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
        check_order(errors, "suspended_from", suspended_from, decision.taken_on, "the decision")
    refuse(errors)
    return permit_suspend(
        permit=permit, suspended_from=suspended_from, suspended_until=suspended_until,
        reason=f"ordered by {named}", actor=actor,
    )  # fmt: skip


def permit_revoke_from_decision(
    *, permit: Permit, decision, revoked_on: date, actor: Actor = None
) -> Permit:
    """The permit revoked as `decision` (an EnforcementAction) orders."""
    errors: Errors = {}
    named = _from_decision(errors, permit, decision, "revoke")
    if decision is not None and not errors:
        check_order(errors, "revoked_on", revoked_on, decision.taken_on, "the decision")
    refuse(errors)
    return permit_revoke(
        permit=permit, revoked_on=revoked_on, reason=f"ordered by {named}", actor=actor
    )

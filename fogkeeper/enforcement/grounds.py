"""What a penalty class needs on record before an order imposes it (RULES.md 12.4), as the
pack's `grounds:` of its penalty order says: an action of a type in the case (`in_case`, a
compliance schedule for the schedule class), the establishment's overflows on record on or
before the complaint was served, at least as many as the occurrences penalised
(`overflows`), each while an order of a listed type was in force (`under_order`)."""

from __future__ import annotations

from datetime import date
from typing import Any

from fogkeeper.incidents.models import Incident

from .models import EnforcementAction

ORDERING = ("suspension", "revocation")


def ground_problem(
    spec, case, fields: dict[str, Any], refers_to: EnforcementAction | None, on: date
) -> str:
    """Why the class in `fields` lacks its ground on record (empty when it has it)."""
    ground = spec.grounds.get(fields.get("class"))
    if not ground:
        return ""
    cls = fields["class"].replace("_", " ")
    lead = f"{ground['citation']}: a {cls} penalty needs {ground['what']}"
    actions = list(case.actions.prefetch_related("facts"))
    in_case = ground.get("in_case") or ()
    if in_case and not any(a.type in in_case and a.taken_on <= on for a in actions):
        return f"{lead}; none is on record in this case."
    if ground.get("overflows"):
        return _overflow_problem(ground, case, fields, refers_to, actions, lead)
    if ground.get("under_order") and not _orders(ground["under_order"], actions, on):
        return f"{lead}; no such order is on record before {on}."
    return ""


def _overflow_problem(ground, case, fields, refers_to, actions, lead: str) -> str:
    complaint = refers_to.traces_to("administrative_complaint") if refers_to else None
    served = complaint.taken_on if complaint is not None else None
    if complaint is None or served is None:
        return f"{lead}; the order names no administrative complaint."
    days = sorted(
        Incident.objects.filter(
            establishment=case.establishment, kind="overflow", attributed=True, date__lte=served
        ).values_list("date", flat=True)
    )
    if ground.get("under_order"):
        days = [d for d in days if _orders(ground["under_order"], actions, d)]
    asked = int(fields.get("occurrences") or 0)
    if asked > len(days):
        return (
            f"{lead}; {len(days)} such overflow{'s are' if len(days) != 1 else ' is'} on record "
            f"by {served}, when {complaint.code} was served (asked {asked})."
        )
    return ""


def _orders(types, actions: list[EnforcementAction], on: date) -> list[EnforcementAction]:
    """The orders of `types` taken on or before `on`; a decision only when it orders a
    suspension or revocation."""
    out = []
    for a in actions:
        if a.type not in types or a.taken_on > on:
            continue
        orders = a.effective_fields().get("orders")
        if orders is None or orders in ORDERING:
            out.append(a)
    return out

"""A change of operator: the current tenure ends, the new one starts, and the permit in force
ends with it, since a permit is not transferable to a new operator; and what the pages say of
it before and after."""

from __future__ import annotations

from datetime import date

from django.db import transaction

from fogkeeper.audit.services import snapshot
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, Operator, OperatorTenure
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    operator_named,
    operator_save,
    refuse,
)

from .models import Permit

NEW_OPERATOR_RULE = "permit.new_operator"


def operator_change(
    *,
    establishment: FoodServiceEstablishment,
    operator: Operator | str,
    on: date,
    actor: Actor = None,
    reason: str = "",
) -> OperatorTenure:
    """A new operator takes over on `on`: the current tenure ends that day, the new one starts,
    and the permit in force ends, since a permit is not transferable to a new operator
    (San Clemente 13.30.050(A), (E); Town 10.02.040(B)). Returns the new tenure."""
    errors: Errors = {}
    current = establishment.current_tenure()
    op = operator_named(errors, operator, establishment.agency)
    if current is not None:
        if op is not None and op.pk is not None and op.pk == current.operator_id:
            add_error(errors, "operator", f"{op} is already the operator of {establishment}.")
        if on <= current.since:
            add_error(
                errors,
                "on",
                f"The change ({on}) must come after the current operator's start "
                f"({current.since}).",
            )
    if establishment.closed_on is not None and on >= establishment.closed_on:
        add_error(errors, "on", f"{establishment} closed on {establishment.closed_on}.")
    permits = list(Permit.objects.filter(establishment=establishment, status="active"))
    for permit in permits:
        if permit.issued_on > on:
            add_error(errors, "on", f"Permit {permit.number} was issued after the change ({on}).")
    refuse(errors)

    pack = establishment.agency.get_pack()
    rule = pack.rules.get("permit.new_operator")
    why = f"{rule.title} ({rule.citation})" if rule else "new operator"
    with transaction.atomic():
        if current is not None:
            before = snapshot(current)
            current.until = on
            current.full_clean()
            current.save()
            audit("tenure.close", current, actor, before=before, reason=reason)
        operator_save(op, actor)
        tenure = OperatorTenure(establishment=establishment, operator=op, since=on)
        tenure.full_clean()
        tenure.save()
        audit("operator.change", tenure, actor, reason=reason)
        for permit in permits:
            before = snapshot(permit)
            permit.status = "ended"
            permit.ended_on = on
            permit.full_clean()
            permit.save()
            audit("permit.end", permit, actor, before=before, reason=why)
    return tenure


def new_operator_rule(*, agency: Agency) -> str:
    """The pack's words for the rule that a permit ends with a change of operator, cited."""
    pack = agency.get_pack()
    rule = pack.rules.get(NEW_OPERATOR_RULE)
    permit = pack.titles.get("permit", "permit")
    if rule is None:
        return f"The {permit} is not transferable to a new operator."
    law = f"{pack.name}, {rule.citation}"
    return f"{rule.title}: the {permit} is not transferable to a new operator ({law})."


def active_permits(*, establishment: FoodServiceEstablishment) -> list:
    return list(Permit.objects.filter(establishment=establishment, status="active"))


def operator_change_warning(*, establishment: FoodServiceEstablishment) -> str:
    """What a change of operator does to the permit, said before the change is recorded."""
    pack = establishment.agency.get_pack()
    permit = pack.titles.get("permit", "permit")
    rule = new_operator_rule(agency=establishment.agency)
    numbers = ", ".join(p.number for p in active_permits(establishment=establishment))
    if not numbers:
        return f"{rule} No {permit} is in force now."
    return f"{rule} Recording a new operator ends {permit} {numbers} on the day it takes over."


def operator_change_ended(*, permits: list, on: date, agency: Agency) -> str:
    """What a recorded change of operator ended, and what comes next."""
    permit = agency.get_pack().titles.get("permit", "permit")
    if not permits:
        return f"No {permit} was in force: the new operator needs one."
    numbers = ", ".join(p.number for p in permits)
    return (
        f"{permit} {numbers} ended on {on:%Y-%m-%d} ({new_operator_rule(agency=agency)}) "
        f"Issue a new {permit} to the new operator."
    )

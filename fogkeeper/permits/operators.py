"""A change of operator: the current tenure ends, the new one starts, and the permit in force
ends with it where the ordinance says so (a permit is not transferable to a new operator); and
what the pages say of it before and after.

Which permits the change ends is the engine's `permit.new_operator` (RULES.md 4, 11.9), asked
of the permit and the new operator alone, so that the permit the pages show in force is the one
the sweep finds in force."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from django.db import transaction

from fogkeeper.audit.services import snapshot
from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, Operator, OperatorTenure
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_not_future,
    operator_named,
    operator_save,
    refuse,
)
from fogkeeper.rules import evaluate

from .models import Permit

NEW_OPERATOR_RULE = "permit.new_operator"
BUSINESS_NAME = "permit.holder_business_name"


def operator_change(
    *,
    establishment: FoodServiceEstablishment,
    operator: Operator | str,
    on: date,
    actor: Actor = None,
    reason: str = "",
    today: date | None = None,
) -> OperatorTenure:
    """A new operator takes over on `on`, a day that has come: the current tenure ends that
    day, the new one starts, and each permit in force that the ordinance ends with the change
    ends (`ends_with_new_operator`: San Clemente 13.30.050(A), (E); Town 10.02.040(B)); the
    others stay in force. A change still to come is recorded once it happens: the permit is in
    force until then. Returns the new tenure."""
    errors: Errors = {}
    check_not_future(errors, today or establishment.agency.today(), on=on)
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
    assert op is not None  # else refused above
    ending = [p for p in permits if ends_with_new_operator(permit=p, operator=op.name, on=on)]

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
        for permit in ending:
            before = snapshot(permit)
            permit.status = "ended"
            permit.ended_on = on
            permit.full_clean()
            permit.save()
            audit("permit.end", permit, actor, before=before, reason=why)
    reevaluate_on_commit(establishment)
    return tenure


def ends_with_new_operator(*, permit: Permit, operator: str, on: date) -> bool:
    """Whether the ordinance ends `permit` when `operator` takes over its establishment on
    `on`, as the engine decides it: the permit and the new operator alone in a case file
    evaluated on that day, `permit.new_operator` found on the permit or not."""
    fse = permit.establishment
    pack = fse.agency.get_pack()
    case = {
        "jurisdiction": fse.agency.pack,
        "as_of": max(on, pack.effective).isoformat(),
        "establishment": {
            "id": fse.code,
            "name": fse.name,
            "opened_on": min(fse.opened_on, on).isoformat(),
            "operator": {"name": operator, "since": on.isoformat()},
        },
        "permit": {
            "number": permit.number,
            "holder": permit.holder,
            "issued_on": permit.issued_on.isoformat(),
            "expires_on": permit.expires_on.isoformat(),
        },
    }
    report = evaluate(case)
    return any(f.rule == NEW_OPERATOR_RULE and f.subject == permit.number for f in report.findings)


def new_operator_rule(*, agency: Agency) -> str:
    """The pack's words for the rule that a permit ends with a change of operator, cited."""
    pack = agency.get_pack()
    rule = pack.rules.get(NEW_OPERATOR_RULE)
    permit = pack.titles.get("permit", "permit")
    if rule is None:
        return f"{pack.name} does not end a {permit} with a change of operator."
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
    if NEW_OPERATOR_RULE not in pack.rules:
        return f"{rule} {permit} {numbers} stays in force."
    return (
        f"{rule} Recording a new operator ends {permit} {numbers} on the day it takes over, "
        f"unless it is the new operator's own or was issued that day.{_business_words(pack)}"
    )


def _business_words(pack) -> str:
    """Where the pack issues its permit to the business, its words saying so."""
    parameter = pack.parameters.get(BUSINESS_NAME)
    if parameter is None or not parameter.values[-1].value:
        return ""
    return f" {parameter.description}"


def operator_change_ended(
    *, permits: list[Permit], on: date, agency: Agency, kept: Sequence[Permit] = ()
) -> str:
    """What a recorded change of operator ended and what it left in force, and what comes
    next."""
    pack = agency.get_pack()
    permit = pack.titles.get("permit", "permit")
    said = []
    if permits:
        numbers = ", ".join(p.number for p in permits)
        said.append(
            f"{permit} {numbers} ended on {on:%Y-%m-%d} ({new_operator_rule(agency=agency)}) "
            f"Issue a new {permit} to the new operator."
        )
    rule = pack.rules.get(NEW_OPERATOR_RULE)
    law = f"{pack.name}, {rule.citation}" if rule else pack.name
    for p in kept:
        said.append(
            f"{permit} {p.number}, issued to {p.holder} on {p.issued_on:%Y-%m-%d}, stays in "
            f"force: the ordinance does not end it with this change of operator ({law})."
        )
    return " ".join(said) or f"No {permit} was in force: the new operator needs one."

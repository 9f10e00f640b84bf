"""Writes of grease control devices beyond installing and removing one (registry.services):
a device installed with its design data checked, its design data corrected, a device
replaced by another on one day, its service frequency set by the manager, and an
establishment's food grinder recorded as installed or removed.

Each validates everything first and raises one `ValidationError` keyed by field, then saves
with its audit rows in one transaction: a refused write changes nothing. `today` is the day
the write is made (a date after it is refused); by default the local date.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from fogkeeper.audit.services import snapshot
from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.rules.errors import ParameterNotInForce
from fogkeeper.rules.formula import FormulaError, required_size

from .models import FoodServiceEstablishment, GreaseControlDevice
from .services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_model,
    check_not_future,
    check_order,
    check_positive,
    device_install,
    device_remove,
    refuse,
)

DESIGN = (
    "location",
    "capacity_gallons",
    "design_depth_inches",
    "compartments",
    "manhole_diameter_inches",
)
ALLOWED = "gcd.allowed_frequencies_days"
INVALID_RULE = "gcd.frequency_invalid"


def merge(errors: Errors, error: ValidationError, fields: dict[str, str] | None = None) -> None:
    """Add a service's refusal to `errors`, its keys renamed by `fields` where given."""
    fields = fields or {}
    for key, messages in error.message_dict.items():
        for message in messages:
            add_error(errors, fields.get(key, key), message)


def together(errors: Errors, *steps: Callable[[], Any]) -> list[Any]:
    """Run the writes `steps` in one transaction, every refusal of each (and those already in
    `errors`) collected into one `ValidationError`: one refused, none is written."""
    results: list[Any] = []
    with transaction.atomic():
        for step in steps:
            try:
                results.append(step())
            except ValidationError as e:
                merge(errors, e)
                results.append(None)
        refuse(errors)
    return results


def _design_checks(errors: Errors, design: dict[str, Any]) -> None:
    check_positive(
        errors,
        capacity_gallons=design.get("capacity_gallons"),
        compartments=design.get("compartments"),
    )


def device_add(
    *,
    establishment: FoodServiceEstablishment,
    code: str,
    kind: str,
    installed_on: date,
    today: date | None = None,
    actor: Actor = None,
    **design: Any,
) -> GreaseControlDevice:
    """A new device with its design data (`DESIGN`): installed not before the establishment
    opened nor after today, its capacity and compartments more than 0."""
    errors: Errors = {}
    check_not_future(errors, today, installed_on=installed_on)
    _design_checks(errors, design)
    (device,) = together(
        errors,
        lambda: device_install(
            establishment=establishment,
            code=code,
            kind=kind,
            installed_on=installed_on,
            actor=actor,
            **design,
        ),
    )
    reevaluate_on_commit(establishment)
    return device


def device_update(
    *,
    device: GreaseControlDevice,
    kind: str,
    installed_on: date,
    today: date | None = None,
    actor: Actor = None,
    reason: str = "",
    **design: Any,
) -> GreaseControlDevice:
    """Correct the device's kind, install date and design data (`DESIGN`); the audit row
    keeps what it was before."""
    errors: Errors = {}
    check_not_future(errors, today, installed_on=installed_on)
    _design_checks(errors, design)
    check_positive(
        errors,
        design_depth_inches=design.get("design_depth_inches"),
        manhole_diameter_inches=design.get("manhole_diameter_inches"),
    )
    if device.removed_on is not None and installed_on > device.removed_on:
        add_error(
            errors, "installed_on", f"{installed_on} is after the removal ({device.removed_on})."
        )
    before = snapshot(device)
    device.kind, device.installed_on = kind, installed_on
    for name in DESIGN:
        setattr(device, name, design.get(name, getattr(device, name)))
    check_model(device, errors)
    if errors:
        device.refresh_from_db()
    refuse(errors)
    with transaction.atomic():
        device.save()
        audit("device.update", device, actor, before=before, reason=reason)
    reevaluate_on_commit(device.establishment)
    return device


def device_replace(
    *,
    device: GreaseControlDevice,
    on: date,
    code: str,
    kind: str,
    today: date | None = None,
    actor: Actor = None,
    reason: str = "",
    **design: Any,
) -> GreaseControlDevice:
    """`device` is removed on `on` and a new one installed that day, in one transaction; the
    removed device stays on record with its services. The new device keeps the old one's
    service frequency when it is of the same kind. Returns the new device."""
    errors: Errors = {}
    check_not_future(errors, today, on=on)
    _design_checks(errors, design)
    frequency = device.service_frequency_days if kind == device.kind else None
    why = reason or f"replaced by {code}"
    try:
        _, new = together(
            errors,
            lambda: device_remove(device=device, removed_on=on, actor=actor, reason=why),
            lambda: device_install(
                establishment=device.establishment,
                code=code,
                kind=kind,
                installed_on=on,
                service_frequency_days=frequency,
                actor=actor,
                **design,
            ),
        )
    except ValidationError:
        device.refresh_from_db()
        raise
    reevaluate_on_commit(device.establishment)
    return new


def device_take_out(
    *,
    device: GreaseControlDevice,
    removed_on: date,
    today: date | None = None,
    actor: Actor = None,
    reason: str = "",
) -> GreaseControlDevice:
    """The device removed on `removed_on` (not after today): it stays on record."""
    errors: Errors = {}
    check_not_future(errors, today, removed_on=removed_on)
    try:
        together(
            errors,
            lambda: device_remove(device=device, removed_on=removed_on, actor=actor, reason=reason),
        )
    finally:
        device.refresh_from_db()
    reevaluate_on_commit(device.establishment)
    return device


def allowed_frequencies(pack, on: date) -> tuple[list[int], str] | None:
    """The frequencies (days) the pack allows to assign on `on`, with their reference; None
    where any whole number of days may be assigned (no `gcd.frequency_invalid` rule)."""
    if not pack.has(INVALID_RULE) or ALLOWED not in pack.parameters:
        return None
    try:
        value = pack.parameters[ALLOWED].value_on(max(on, pack.effective))
    except ParameterNotInForce:
        return None
    return sorted(value.value), value.reference


def device_frequency_set(
    *,
    device: GreaseControlDevice,
    service_frequency_days: int | None,
    on: date,
    actor: Actor = None,
    reason: str = "",
) -> GreaseControlDevice:
    """The device's own service frequency from `on` (None: the permit's or the pack's
    default applies again); where the pack names the frequencies that may be assigned
    (the Town, 10.02.130(B)), only one of those."""
    errors: Errors = {}
    check_positive(errors, service_frequency_days=service_frequency_days)
    pack = device.establishment.agency.get_pack()
    allowed = allowed_frequencies(pack, on)
    if service_frequency_days is not None and allowed and service_frequency_days not in allowed[0]:
        days = ", ".join(str(n) for n in allowed[0])
        add_error(
            errors,
            "service_frequency_days",
            f"{service_frequency_days} days is not a frequency {pack.name} allows: "
            f"{days} days ({allowed[1]}).",
        )
    if service_frequency_days == device.service_frequency_days:
        add_error(errors, "service_frequency_days", "That is already the device's frequency.")
    refuse(errors)
    before = snapshot(device)
    with transaction.atomic():
        device.service_frequency_days = service_frequency_days
        device.full_clean()
        device.save()
        audit("device.frequency_set", device, actor, before=before, reason=reason)
    reevaluate_on_commit(device.establishment)
    return device


def food_grinder_install(
    *,
    establishment: FoodServiceEstablishment,
    installed_on: date,
    today: date | None = None,
    actor: Actor = None,
) -> FoodServiceEstablishment:
    """The establishment has a food grinder from `installed_on` (which the engine reads:
    RULES.md 6, `food_grinder.prohibited`)."""
    errors: Errors = {}
    if establishment.food_grinder:
        add_error(errors, "installed_on", f"{establishment} already has a food grinder.")
    check_not_future(errors, today, installed_on=installed_on)
    check_order(errors, "installed_on", installed_on, establishment.opened_on, "the opening")
    refuse(errors)
    before = snapshot(establishment)
    with transaction.atomic():
        establishment.food_grinder = True
        establishment.food_grinder_installed_on = installed_on
        establishment.save()
        audit("food_grinder.install", establishment, actor, before=before)
    reevaluate_on_commit(establishment)
    return establishment


def food_grinder_remove(
    *,
    establishment: FoodServiceEstablishment,
    removed_on: date,
    today: date | None = None,
    actor: Actor = None,
) -> FoodServiceEstablishment:
    """The establishment's food grinder was taken out on `removed_on`; the audit row keeps
    when it had been installed and the day it was removed."""
    errors: Errors = {}
    if not establishment.food_grinder:
        add_error(errors, "removed_on", f"{establishment} has no food grinder on record.")
    check_not_future(errors, today, removed_on=removed_on)
    since = establishment.food_grinder_installed_on or establishment.opened_on
    check_order(errors, "removed_on", removed_on, since, "its installation")
    refuse(errors)
    before = snapshot(establishment)
    with transaction.atomic():
        establishment.food_grinder = False
        establishment.food_grinder_installed_on = None
        establishment.save()
        audit(
            "food_grinder.remove",
            establishment,
            actor,
            before=before,
            reason=f"removed on {removed_on.isoformat()}",
        )
    reevaluate_on_commit(establishment)
    return establishment


def sizing_rule(device: GreaseControlDevice, on: date) -> dict | None:
    """The pack's sizing rule of the device's kind in force on `on` (gcd.sizing), if any."""
    pack = device.establishment.agency.get_pack()
    if "gcd.undersized" not in pack.rules:
        return None
    try:
        rules = pack.param("gcd.sizing", on) or {}
    except ParameterNotInForce:
        return None
    return rules.get(device.kind)


def sizing_required(device: GreaseControlDevice, on: date) -> float | None:
    """The size the pack's formula requires of the device with its inputs (None: no rule,
    or an input not recorded yet)."""
    spec = sizing_rule(device, on)
    if spec is None:
        return None
    try:
        return required_size(spec, device.sizing_inputs or {})
    except FormulaError:
        return None


def device_sizing_set(
    *,
    device: GreaseControlDevice,
    inputs: dict[str, float | None],
    on: date,
    actor: Actor = None,
) -> GreaseControlDevice:
    """Record the inputs of the pack's sizing formula for the device (seats, hours, flow):
    only the inputs the rule names, each a number of zero or more; None clears one."""
    spec = sizing_rule(device, on)
    errors: Errors = {}
    if spec is None:
        add_error(errors, "__all__", "The ordinance sizes no device of this kind by a formula.")
        refuse(errors)
    assert spec is not None  # else refused above
    named = spec.get("inputs") or {}
    for name, value in inputs.items():
        if name not in named:
            add_error(errors, name, f"{name} is not an input of the ordinance's sizing rule.")
        elif value is not None and value < 0:
            add_error(errors, name, f"{named[name]} must be zero or more.")
    refuse(errors)
    before = snapshot(device)
    kept = {k: v for k, v in (device.sizing_inputs or {}).items() if k in named}
    kept.update({k: float(v) for k, v in inputs.items() if v is not None})
    for name in [k for k, v in inputs.items() if v is None]:
        kept.pop(name, None)
    with transaction.atomic():
        device.sizing_inputs = kept
        device.full_clean()
        device.save()
        audit("device.sizing_set", device, actor, before=before)
    reevaluate_on_commit(device.establishment)
    return device

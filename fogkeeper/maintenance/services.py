"""Writes of pump-outs and waste cooking oil pickups (see registry.services for the
conventions)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.db import transaction

from fogkeeper.registry.models import Agency, FoodServiceEstablishment, GreaseControlDevice, Hauler
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_model,
    check_not_negative,
    check_order,
    check_same_agency,
    refuse,
)

from .models import Service, YellowGreasePickup


def service_record(
    *,
    device: GreaseControlDevice,
    manifest_number: str,
    date: date,
    hauler: Hauler | None = None,
    agency: Agency | None = None,
    full_pump_out: bool = True,
    gallons_removed: Decimal | None = None,
    fog_inches: Decimal | None = None,
    solids_inches: Decimal | None = None,
    final_chamber_floating_oil: bool | None = None,
    sludge_to_outlet_inches: Decimal | None = None,
    notes: str = "",
    actor: Actor = None,
) -> Service:
    """A pump-out of `device` with its manifest and the depths measured before it. `agency`,
    when given, is the agency recording it: a device of another agency is refused."""
    service = Service(
        device=device,
        hauler=hauler,
        manifest_number=manifest_number,
        date=date,
        full_pump_out=full_pump_out,
        gallons_removed=gallons_removed,
        fog_inches=fog_inches,
        solids_inches=solids_inches,
        final_chamber_floating_oil=final_chamber_floating_oil,
        sludge_to_outlet_inches=sludge_to_outlet_inches,
        notes=notes,
    )
    errors: Errors = {}
    device_agency = device.establishment.agency
    if agency is not None:
        check_same_agency(errors, "device", device, agency)
    check_same_agency(errors, "hauler", hauler, device_agency)
    check_order(errors, "date", date, device.installed_on, f"{device.code}'s installation")
    if device.removed_on is not None and date > device.removed_on:
        add_error(
            errors, "date", f"{date} is after {device.code} was removed ({device.removed_on})."
        )
    check_not_negative(
        errors,
        gallons_removed=gallons_removed,
        fog_inches=fog_inches,
        solids_inches=solids_inches,
        sludge_to_outlet_inches=sludge_to_outlet_inches,
    )
    if hauler is not None and manifest_number:
        earlier = (
            Service.objects.filter(hauler=hauler, manifest_number=manifest_number)
            .select_related("device__establishment")
            .first()
        )
        if earlier is not None:
            add_error(
                errors,
                "manifest_number",
                f"Manifest {manifest_number} of {hauler} is already recorded: "
                f"{earlier.device.code} at {earlier.device.establishment.name} on {earlier.date}.",
            )
    check_model(service, errors)
    refuse(errors)
    with transaction.atomic():
        service.save()
        audit("service.record", service, actor)
    return service


def pickup_record(
    *,
    establishment: FoodServiceEstablishment,
    date: date,
    hauler: Hauler | None = None,
    gallons: Decimal | None = None,
    manifest_number: str = "",
    actor: Actor = None,
) -> YellowGreasePickup:
    """A waste cooking oil (yellow grease) pickup, with its receipt or manifest number."""
    pickup = YellowGreasePickup(
        establishment=establishment,
        date=date,
        hauler=hauler,
        gallons=gallons,
        manifest_number=manifest_number,
    )
    errors: Errors = {}
    check_same_agency(errors, "hauler", hauler, establishment.agency)
    check_not_negative(errors, gallons=gallons)
    if (
        hauler is not None
        and manifest_number
        and YellowGreasePickup.objects.filter(
            hauler=hauler, manifest_number=manifest_number
        ).exists()
    ):
        add_error(
            errors,
            "manifest_number",
            f"Manifest {manifest_number} of {hauler} is already recorded.",
        )
    check_model(pickup, errors)
    refuse(errors)
    with transaction.atomic():
        pickup.save()
        audit("pickup.record", pickup, actor)
    return pickup

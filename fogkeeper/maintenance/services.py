"""Writes of pump-outs and waste cooking oil pickups (see registry.services for the
conventions)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from fogkeeper.audit.services import snapshot
from fogkeeper.formats import listed
from fogkeeper.locks import hold_row
from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.models import (
    Agency,
    FoodServiceEstablishment,
    GreaseControlDevice,
    Hauler,
    ServiceContract,
)
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_model,
    check_not_negative,
    check_order,
    check_same_agency,
    check_within_depth,
    refuse,
)

from .models import HAULER_SOURCES, MANIFEST_CONTENT, Service, ServiceDispute, YellowGreasePickup


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
    source: str = "staff",
    submitted_by=None,
    today: date | None = None,
    actor: Actor = None,
) -> Service:
    """A pump-out of `device` with its manifest and the depths measured before it. `agency`,
    when given, is the agency recording it: a device of another agency is refused. Staff
    name the hauler; a date after `today` (by default the local date) is refused."""
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
        source=source,
        submitted_by=submitted_by,
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
    check_within_depth(errors, "solids_inches", device, fog_inches, solids_inches)
    if source == "staff" and hauler is None:
        add_error(errors, "hauler", "A pump-out names the hauler that did it (its manifest).")
    if date > (today or timezone.localdate()):
        add_error(errors, "date", f"{date} is in the future.")
    with transaction.atomic():
        lock_manifests(hauler)
        _check_manifest(errors, service)
        check_model(service, errors)
        refuse(errors)
        service.save()
        audit("service.record", service, actor)
    reevaluate_on_commit(device.establishment)
    return service


def _check_manifest(errors: Errors, service: Service) -> None:
    """A hauler's manifest number is used once, except that one manifest may cover several
    devices of the same establishment pumped out on the same date."""
    if service.hauler is None or not service.manifest_number:
        return
    earlier = (
        Service.objects.filter(hauler=service.hauler, manifest_number=service.manifest_number)
        .select_related("device__establishment")
        .order_by("pk")
    )
    for other in earlier:
        same_visit = (
            other.device.establishment_id == service.device.establishment_id
            and other.date == service.date
            and other.device_id != service.device_id
        )
        if not same_visit:
            add_error(
                errors,
                "manifest_number",
                f"Manifest {service.manifest_number} of {service.hauler} is already recorded: "
                f"{other.device.code} at {other.device.establishment.name} on {other.date}.",
            )
            return


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
    with transaction.atomic():
        lock_manifests(hauler)
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
        pickup.save()
        audit("pickup.record", pickup, actor)
    reevaluate_on_commit(establishment)
    return pickup


def service_submit(
    *,
    hauler: Hauler,
    device: GreaseControlDevice,
    manifest_number: str,
    date: date,
    source: str,
    today: date,
    actor: Actor = None,
    **readings,
) -> tuple[Service, bool]:
    """A hauler's own pump-out of a customer's device. Idempotent on the manifest number:
    the same manifest with the same content returns the stored service and False; with other
    content it is refused. Returns (service, created)."""
    if source not in HAULER_SOURCES:
        raise ValueError(f"not a hauler's source: {source}")
    errors: Errors = {}
    if not manifest_number or not manifest_number.strip():
        add_error(errors, "manifest_number", "The manifest number is required.")
    if date > today:
        add_error(errors, "date", f"{date} is in the future.")
    fse = device.establishment
    if not ServiceContract.objects.filter(
        Q(until__isnull=True) | Q(until__gte=date),
        hauler=hauler,
        establishment=fse,
        since__lte=date,
    ).exists():
        add_error(errors, "device", f"{fse.name} was not a customer of {hauler} on {date}.")
    refuse(errors)
    with transaction.atomic():
        lock_manifests(hauler)
        earlier = _submitted(hauler, device, manifest_number, date, readings)
        if earlier is not None:
            return earlier, False
        try:
            with transaction.atomic():
                service = service_record(
                    device=device,
                    hauler=hauler,
                    agency=hauler.agency,
                    manifest_number=manifest_number,
                    date=date,
                    actor=actor,
                    source=source,
                    submitted_by=actor if getattr(actor, "is_authenticated", False) else None,
                    today=today,
                    **readings,
                )
        except IntegrityError:  # stored meanwhile by a writer that took no lock (an import)
            earlier = _submitted(hauler, device, manifest_number, date, readings)
            if earlier is None:
                raise
            return earlier, False
    return service, True


def lock_manifests(hauler: Hauler | None) -> None:
    """Until the transaction ends, no other writer that calls this may store a manifest of
    `hauler`: a manifest number is checked and then stored (the rule of one manifest per visit
    is more than a unique constraint can say), so the check must not be overtaken."""
    if hauler is not None:
        hold_row(hauler)


# What a manifest holds, in the words of a refusal naming what differs.
MANIFEST_WORDS = {
    "device_id": "device",
    "date": "date",
    "full_pump_out": "full or partial pump-out",
    "gallons_removed": "gallons removed",
    "fog_inches": "FOG depth",
    "solids_inches": "solids depth",
}


def _submitted(
    hauler: Hauler, device: GreaseControlDevice, manifest_number: str, date: date, readings
) -> Service | None:
    """The service already stored under the hauler's manifest that a submission repeats (None
    if there is none); refused when the manifest was stored with other content."""
    earlier = (
        Service.objects.filter(
            hauler=hauler, manifest_number=manifest_number, device=device
        ).first()
        or Service.objects.filter(hauler=hauler, manifest_number=manifest_number)
        .exclude(device__establishment=device.establishment, date=date)
        .first()
    )
    if earlier is None:
        return None
    wanted = {"device_id": device.pk, "date": date, "full_pump_out": True, **readings}
    different = [
        MANIFEST_WORDS.get(name, name.replace("_", " "))
        for name in MANIFEST_CONTENT
        if name in wanted and getattr(earlier, name) != wanted[name]
    ]
    if different:
        refuse(
            {
                "manifest_number": [
                    f"Manifest {manifest_number} was already sent with a different "
                    f"{listed(different)}; a manifest is stored once. If the one stored is "
                    "wrong, ask the agency to correct it."
                ]
            }
        )
    return earlier


def service_dispute(
    *, service: Service, reason: str, raised_on: date, actor: Actor
) -> tuple[ServiceDispute, bool]:
    """Staff doubt `service`: it is kept, and no longer counts until the dispute is withdrawn.
    Idempotent: a service already disputed keeps its open dispute, returned with False.
    Returns (the open dispute, created)."""
    if not reason.strip():
        refuse({"reason": ["Say why the pump-out is disputed."]})
    with transaction.atomic():
        _lock(service)
        already = service.disputes.filter(withdrawn_on__isnull=True).first()
        if already is not None:
            return already, False
        dispute = ServiceDispute(
            service=service, raised_by=actor, raised_on=raised_on, reason=reason.strip()
        )
        dispute.save()
        audit("service.dispute", dispute, actor)
    reevaluate_on_commit(service.device.establishment)
    return dispute, True


def service_dispute_withdraw(
    *, service: Service, reason: str, withdrawn_on: date, actor: Actor
) -> tuple[ServiceDispute | None, bool]:
    """The open dispute of `service` withdrawn: the service counts again, the dispute stays on
    record. Idempotent: with no dispute open nothing changes, and (None, False) comes back.
    Returns (the dispute withdrawn, withdrawn)."""
    with transaction.atomic():
        _lock(service)
        dispute = service.disputes.filter(withdrawn_on__isnull=True).first()
        if dispute is None:
            return None, False
        if withdrawn_on < dispute.raised_on:
            refuse({"withdrawn_on": [f"{withdrawn_on} is before it was raised."]})
        before = snapshot(dispute)
        dispute.withdrawn_on, dispute.withdrawn_reason = withdrawn_on, reason.strip()
        dispute.save(update_fields=["withdrawn_on", "withdrawn_reason"])
        audit("service.dispute_withdraw", dispute, actor, before=before)
    reevaluate_on_commit(service.device.establishment)
    return dispute, True


def _lock(service: Service) -> None:
    """Disputes of `service` are opened and withdrawn one at a time (the open one is looked
    for, then written)."""
    hold_row(service)

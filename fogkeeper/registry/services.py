"""Writes of the registry (establishments, operators, devices, haulers), and the deletion of any
program record, which the pack's record retention period may refuse.

Every service validates everything first and raises one `ValidationError` keyed by field,
then saves inside one transaction together with its audit rows: a refused write changes
nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, transaction
from django.db.models.deletion import ProtectedError, RestrictedError
from django.utils import timezone

from fogkeeper.audit.services import audit_record, snapshot
from fogkeeper.locks import hold_row
from fogkeeper.rules.calendar import Duration
from fogkeeper.rules.errors import ParameterNotInForce

from .models import (
    Agency,
    ApprovedException,
    FoodServiceEstablishment,
    GreaseControlDevice,
    Hauler,
    OperationChange,
    Operator,
    OperatorTenure,
    Parcel,
    normalise_address,
)
from .selectors import record_agency

Errors = dict[str, list[str]]
Actor = AbstractBaseUser | None  # who acts: a user, or None for the system

RETENTION = "records.retention"

# The date a record's retention period counts from: the first of these fields that is set
# ("training.date" follows the foreign key). A record with all of them empty is still current
# (an open establishment, an installed device, an employee on the roster) and is kept.
# Records not named here (agencies, operators, parcels, haulers...) are reference data that
# may be deleted when nothing refers to them.
RETAINED_FROM: dict[str, tuple[str, ...]] = {
    "registry.foodserviceestablishment": ("closed_on",),
    "registry.operatortenure": ("until",),
    "registry.operationchange": ("date",),
    "registry.greasecontroldevice": ("removed_on",),
    "registry.servicecontract": ("until",),  # who the hauler's customers were, and when
    "permits.permit": ("ended_on", "expires_on"),
    "permits.permitapplication": ("decided_on", "submitted_on"),
    "permits.permitmodification": ("effective_on",),
    "permits.planreview": ("decided_on", "submitted_on"),
    "maintenance.service": ("date",),
    "maintenance.servicedispute": ("withdrawn_on",),  # an open dispute is current
    "maintenance.yellowgreasepickup": ("date",),
    "training.employee": ("left_on",),
    "training.training": ("date",),
    "training.attendance": ("training.date",),
    "inspections.inspection": ("date",),
    "inspections.measurement": ("inspection.date",),
    "inspections.checklistanswer": ("inspection.date",),
    "inspections.inspectionphoto": ("inspection.date",),
    "inspections.sample": ("date",),
    "incidents.incident": ("date",),
    "sewers.segmentcleaning": ("cleaned_on",),
}
NEVER_DELETED = {"audit.auditevent"}


# -- helpers shared by the services of every app ------------------------------------------


def refuse(errors: Errors) -> None:
    if errors:
        raise ValidationError({k: v for k, v in errors.items() if v})


def add_error(errors: Errors, field: str, message: str) -> None:
    errors.setdefault(field, []).append(message)


def check_model(
    obj: models.Model,
    errors: Errors,
    *,
    exclude: Iterable[str] = (),
    prefix: str = "",
    constraints: bool = True,
) -> None:
    """Collect `obj.full_clean()`'s complaints into `errors` (under `prefix` when given);
    without the model's constraints when `constraints` is false (the caller checks them).

    A duplicate under a unique constraint is put under the constraint's last field. Other
    constraint violations (Django reports them without a field) are kept only when no other
    error was found: the services check those rules first, with field-keyed messages."""
    had_errors = bool(errors)
    try:
        obj.full_clean(exclude=list(exclude) or None, validate_constraints=constraints)
    except ValidationError as e:
        for field, messages in e.error_dict.items():
            for error in messages:
                message = " ".join(error.messages)
                key = field
                if field == NON_FIELD_ERRORS and error.code == "unique_together":
                    key = error.params["unique_check"][-1]
                    if key in errors:
                        continue
                elif field == NON_FIELD_ERRORS and had_errors:
                    continue
                if prefix:
                    message = message if key == NON_FIELD_ERRORS else f"{key}: {message}"
                    key = prefix
                add_error(errors, key, message)


def check_positive(errors: Errors, **values: Decimal | int | None) -> None:
    for field, value in values.items():
        if value is not None and value <= 0:
            add_error(errors, field, f"Must be more than 0 (got {value}).")


def check_not_negative(errors: Errors, **values: Decimal | int | None) -> None:
    for field, value in values.items():
        if value is not None and value < 0:
            add_error(errors, field, f"Cannot be negative (got {value}).")


def check_order(errors: Errors, field: str, later: date | None, earlier: date, what: str) -> None:
    """`later` (the value of `field`) may not come before `earlier` (the date of `what`)."""
    if later is not None and later < earlier:
        add_error(errors, field, f"{later} is before {what} ({earlier}).")


def check_same_agency(errors: Errors, field: str, obj: Any, agency: Agency) -> None:
    if obj is not None and record_agency(obj) != agency:
        add_error(errors, field, f"{obj} belongs to another agency than {agency}.")


def audit(action: str, obj: models.Model, actor: Actor, **kw: Any) -> None:
    audit_record(action=action, obj=obj, actor=actor, agency=record_agency(obj), **kw)


def lock(obj: models.Model) -> None:
    """Inside a transaction: lock `obj`'s row until it ends and read it again as stored, so a
    change another writer made meanwhile is the "before" of this one (its audit row) rather
    than lost. Rows referring to it may still be added (the lock is not on its key)."""
    hold_row(obj)
    obj.refresh_from_db()


# -- operators and establishments ---------------------------------------------------------


def operator_register(
    *,
    agency: Agency,
    name: str,
    mailing_address: str = "",
    phone: str = "",
    email: str = "",
    actor: Actor = None,
) -> Operator:
    operator = Operator(
        agency=agency, name=name.strip(), mailing_address=mailing_address.strip(),
        phone=phone.strip(), email=email.strip(),
    )  # fmt: skip
    errors: Errors = {}
    _check_phone(errors, operator.phone)
    check_model(operator, errors, exclude=["phone"] if "phone" in errors else ())
    refuse(errors)
    with transaction.atomic():
        operator.save()
        audit("operator.register", operator, actor)
    return operator


_PHONE = re.compile(r"^\+?[0-9 ().\-/]+((x|ext\.?)\s*[0-9]+)?$", re.IGNORECASE)


def operator_contact_update(
    *,
    operator: Operator,
    phone: str,
    email: str,
    mailing_address: str,
    actor: Actor = None,
) -> bool:
    """The operator's phone, email and mailing address as given. Returns whether anything
    changed (an unchanged form writes no audit row)."""
    with transaction.atomic():
        lock(operator)
        before = snapshot(operator)
        operator.phone, operator.email = phone.strip(), email.strip()
        operator.mailing_address = mailing_address.strip()
        errors: Errors = {}
        digits = sum(c.isdigit() for c in operator.phone)
        if operator.phone and (not _PHONE.match(operator.phone) or digits < 7):
            add_error(errors, "phone", f"{operator.phone!r} is not a phone number.")
        check_model(operator, errors, exclude=["phone"] if "phone" in errors else ())
        if errors:
            operator.refresh_from_db()
            refuse(errors)
        if snapshot(operator) == before:
            return False
        operator.save(update_fields=["phone", "email", "mailing_address"])
        audit("operator.contact", operator, actor, before=before)
    return True


def _operator(errors: Errors, operator: Operator | str, agency: Agency) -> Operator | None:
    """An existing operator of the agency, or a new one (unsaved) named by a string."""
    if isinstance(operator, str):
        new = Operator(agency=agency, name=operator.strip())
        check_model(new, errors, prefix="operator")
        return new
    check_same_agency(errors, "operator", operator, agency)
    return operator


def _save_operator(operator: Operator, actor: Actor) -> None:
    if operator.pk is None:
        operator.save()
        audit("operator.register", operator, actor)


def establishment_register(
    *,
    agency: Agency,
    code: str,
    name: str,
    address: str,
    opened_on: date,
    operator: Operator | str,
    operator_since: date | None = None,
    city: str = "",
    zip_code: str = "",
    parcel: Parcel | None = None,
    category: str = "",
    on_public_sewer: bool = True,
    food_grinder: bool = False,
    food_grinder_installed_on: date | None = None,
    latitude: Decimal | None = None,
    longitude: Decimal | None = None,
    today: date | None = None,
    actor: Actor = None,
) -> FoodServiceEstablishment:
    """A new FSE with its first operator (an `Operator` of the agency, or the name of a new
    one), operating it since `operator_since` (by default the opening date), in one of the
    pack's categories (by default the pack's `default_category`). Given `today`, dates after
    it are refused."""
    fse = FoodServiceEstablishment(
        agency=agency,
        code=code,
        name=name,
        address=address,
        normalised_address=normalise_address(address),
        opened_on=opened_on,
        city=city,
        zip_code=zip_code,
        parcel=parcel,
        category=category,
        on_public_sewer=on_public_sewer,
        food_grinder=food_grinder,
        food_grinder_installed_on=food_grinder_installed_on,
        latitude=latitude,
        longitude=longitude,
    )
    since = operator_since or opened_on
    errors: Errors = {}
    if today is not None:
        check_not_future(errors, today, opened_on=opened_on, operator_since=operator_since)
    check_coordinates(errors, latitude, longitude)
    check_model(fse, errors)
    check_same_agency(errors, "parcel", parcel, agency)
    check_order(errors, "operator_since", since, opened_on, "the opening")
    op = _operator(errors, operator, agency)
    refuse(errors)
    with transaction.atomic():
        fse.save()
        audit("establishment.register", fse, actor)
        _save_operator(op, actor)
        tenure = OperatorTenure(establishment=fse, operator=op, since=since)
        tenure.full_clean()
        tenure.save()
        audit("tenure.open", tenure, actor)
    return fse


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
    from fogkeeper.permits.models import Permit

    errors: Errors = {}
    current = establishment.current_tenure()
    op = _operator(errors, operator, establishment.agency)
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
        _save_operator(op, actor)
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


# -- devices and haulers ------------------------------------------------------------------


def device_install(
    *,
    establishment: FoodServiceEstablishment,
    code: str,
    kind: str,
    installed_on: date,
    location: str = "",
    capacity_gallons: Decimal | None = None,
    design_depth_inches: Decimal | None = None,
    compartments: int | None = None,
    manhole_diameter_inches: Decimal | None = None,
    service_frequency_days: int | None = None,
    actor: Actor = None,
) -> GreaseControlDevice:
    device = GreaseControlDevice(
        establishment=establishment,
        code=code,
        kind=kind,
        installed_on=installed_on,
        location=location,
        capacity_gallons=capacity_gallons,
        design_depth_inches=design_depth_inches,
        compartments=compartments,
        manhole_diameter_inches=manhole_diameter_inches,
        service_frequency_days=service_frequency_days,
    )
    errors: Errors = {}
    check_not_negative(errors, capacity_gallons=capacity_gallons)
    check_positive(
        errors,
        design_depth_inches=design_depth_inches,
        manhole_diameter_inches=manhole_diameter_inches,
        service_frequency_days=service_frequency_days,
    )
    check_model(device, errors)
    refuse(errors)
    with transaction.atomic():
        device.save()
        audit("device.install", device, actor)
    return device


def device_exception_approve(
    *,
    device: GreaseControlDevice,
    field: str,
    approved_on: date,
    approved_by: str = "",
    reference: str = "",
    actor: Actor = None,
) -> ApprovedException:
    """A design field of the device approved below the pack's limit; from `approved_on` the
    engine no longer checks it (RULES 11.11). Refused where the pack allows no exceptions."""
    errors: Errors = {}
    exception = ApprovedException(
        device=device, field=field, approved_on=approved_on, approved_by=approved_by,
        reference=reference,
    )  # fmt: skip
    check_model(exception, errors)
    refuse(errors)
    with transaction.atomic():
        exception.save()
        audit("device.exception_approve", exception, actor)
    return exception


def record_end(
    obj: models.Model,
    *,
    field: str,
    on: date,
    started_on: date,
    started: str,
    ended: str,
    action: str,
    actor: Actor,
    reason: str = "",
) -> None:
    """Set the date a record ends (a device removed, an employee gone), once, not before it
    started; the change is audited."""
    with transaction.atomic():
        lock(obj)
        errors: Errors = {}
        if getattr(obj, field) is not None:
            add_error(errors, field, f"{obj} {ended} on {getattr(obj, field)}.")
        check_order(errors, field, on, started_on, started)
        refuse(errors)
        before = snapshot(obj)
        setattr(obj, field, on)
        obj.full_clean()
        obj.save()
        audit(action, obj, actor, before=before, reason=reason)


def device_remove(
    *, device: GreaseControlDevice, removed_on: date, actor: Actor = None, reason: str = ""
) -> GreaseControlDevice:
    record_end(
        device, field="removed_on", on=removed_on, started_on=device.installed_on,
        started="its installation", ended="was removed", action="device.remove",
        actor=actor, reason=reason,
    )  # fmt: skip
    return device


def hauler_register(
    *,
    agency: Agency,
    code: str,
    name: str,
    licence_number: str = "",
    licence_expires_on: date | None = None,
    licensed: bool = True,
    actor: Actor = None,
) -> Hauler:
    hauler = Hauler(
        agency=agency,
        code=code,
        name=name,
        licence_number=licence_number,
        licence_expires_on=licence_expires_on,
        licensed=licensed,
    )
    errors: Errors = {}
    check_model(hauler, errors)
    refuse(errors)
    with transaction.atomic():
        hauler.save()
        audit("hauler.register", hauler, actor)
    return hauler


# -- deletion and record retention --------------------------------------------------------


def _follow(obj: Any, path: str) -> Any:
    for name in path.split("."):
        obj = getattr(obj, name)
    return obj


def record_retained_from(obj: models.Model) -> tuple[str, date | None] | None:
    """(field, date) the record's retention period counts from; date None while the record is
    current; None for reference data, which no retention period covers."""
    paths = RETAINED_FROM.get(obj._meta.label_lower)
    if paths is None:
        return None
    for path in paths:
        value = _follow(obj, path)
        if value is not None:
            return path.split(".")[0], value
    return paths[0].split(".")[0], None


def record_delete_check(obj: models.Model, *, on: date) -> None:
    """Raise the `ValidationError` that refuses to delete `obj` on `on`, if any: a record is
    kept while current and for the pack's retention period after its date (the last day of
    the period included)."""
    label = obj._meta.label_lower
    if label in NEVER_DELETED:
        raise ValidationError({NON_FIELD_ERRORS: [f"{obj._meta.verbose_name} is never deleted."]})
    retained = record_retained_from(obj)
    if retained is None:
        return
    field, since = retained
    agency = record_agency(obj)
    pack = agency.get_pack()
    try:
        period = Duration.parse(pack.param(RETENTION, on))
        reference = pack.parameters[RETENTION].value_on(on).reference
    except ParameterNotInForce:
        raise ValidationError(
            {field: [f"{agency} has no record retention period in force on {on}."]}
        ) from None
    name = f"{obj._meta.verbose_name} “{obj}”"
    law = f"{pack.name}, {reference}"
    if since is None:
        why = f"The {name} is current: records are kept while current and {period} after ({law})."
        raise ValidationError({field: [why]})
    if since >= pack.calendar.subtract(on, period):
        first = on + timedelta(days=1)
        while since >= pack.calendar.subtract(first, period):
            first += timedelta(days=1)
        why = (
            f"The {name} is from {since}, within the {period} records are kept ({law}): "
            f"it may be deleted from {first}."
        )
        raise ValidationError({field: [why]})


def record_delete(obj: models.Model, *, actor: Actor, on: date, reason: str = "") -> None:
    """Delete a record, unless its retention period (or a record referring to it) forbids."""
    record_delete_check(obj, on=on)
    before = snapshot(obj)
    for rel in obj._meta.related_objects:
        if rel.one_to_many and rel.on_delete is models.CASCADE:
            before[rel.get_accessor_name()] = [
                snapshot(child) for child in getattr(obj, rel.get_accessor_name()).all()
            ]
    why = reason or f"deleted on {on}"
    try:
        with transaction.atomic():
            audit(
                f"{obj._meta.model_name}.delete", obj, actor, before=before, after=None, reason=why
            )
            files = [f for f in (getattr(obj, d.attname) for d in obj._meta.concrete_fields
                     if isinstance(d, models.FileField)) if f]  # fmt: skip
            obj.delete()
            for file in files:  # the record's files go with it, once the deletion is committed
                transaction.on_commit(lambda f=file: f.storage.delete(f.name))
    except (ProtectedError, RestrictedError) as e:
        referring = getattr(e, "protected_objects", None) or e.restricted_objects
        others = sorted({str(o._meta.verbose_name_plural) for o in referring})
        raise ValidationError(
            {NON_FIELD_ERRORS: [f"{obj} is still referred to by {', '.join(others)}."]}
        ) from None


# -- the registry kept current from the staff pages ---------------------------------------

ESTABLISHMENT_FIELDS = (
    "name", "address", "city", "zip_code", "category", "opened_on", "parcel",
    "on_public_sewer", "latitude", "longitude",
)  # fmt: skip


def check_not_future(errors: Errors, today: date | None, **dates: date | None) -> None:
    """Facts are recorded once they happened: a date after `today` (by default the local
    date) is refused."""
    today = today or timezone.localdate()
    for field, value in dates.items():
        if value is not None and value > today:
            add_error(errors, field, f"{value} is in the future (today is {today}).")


def check_coordinates(errors: Errors, latitude: Decimal | None, longitude: Decimal | None) -> None:
    if latitude is not None and not -90 <= latitude <= 90:
        add_error(errors, "latitude", f"A latitude is between -90 and 90 (got {latitude}).")
    if longitude is not None and not -180 <= longitude <= 180:
        add_error(errors, "longitude", f"A longitude is between -180 and 180 (got {longitude}).")
    if (latitude is None) != (longitude is None):
        field = "longitude" if longitude is None else "latitude"
        add_error(errors, field, "Give both the latitude and the longitude, or neither.")


def _update(obj: models.Model, values: dict[str, Any], check, action: str, actor: Actor) -> bool:
    """Set `values` on `obj`, run `check(errors)` and the model's own validation, and save
    with an audit row of before and after. Refused: nothing changes, not even `obj` in
    memory. Unchanged: nothing is written. Returns whether anything changed. `obj` is read
    again under a lock first: its "before" is what is stored, whoever changed it last."""
    with transaction.atomic():
        lock(obj)
        before = snapshot(obj)
        for name, value in values.items():
            setattr(obj, name, value)
        errors: Errors = {}
        check(errors)
        check_model(obj, errors)
        if errors:
            obj.refresh_from_db()
            refuse(errors)
        if snapshot(obj) == before:
            return False
        obj.save()
        audit(action, obj, actor, before=before)
    return True


def _create(obj: models.Model, check, action: str, actor: Actor):
    """Validate a new record (`check(errors)`, then the model's) and save it with its audit."""
    errors: Errors = {}
    check(errors)
    check_model(obj, errors)
    refuse(errors)
    with transaction.atomic():
        obj.save()
        audit(action, obj, actor)
    return obj


def establishment_update(
    *, establishment: FoodServiceEstablishment, today: date, actor: Actor = None, **values: Any
) -> bool:
    """Change what the agency knows of an establishment (everything but its code, which its
    records are filed under). Returns whether anything changed."""
    unknown = set(values) - set(ESTABLISHMENT_FIELDS)
    if unknown:
        raise TypeError(f"establishment_update cannot change {', '.join(sorted(unknown))}")
    agency = establishment.agency
    first = establishment.tenures.order_by("since").values_list("since", flat=True).first()

    def check(errors: Errors) -> None:
        opened, closed = establishment.opened_on, establishment.closed_on
        check_not_future(errors, today, opened_on=opened)
        if closed is not None and opened is not None and closed < opened:
            add_error(errors, "opened_on", f"{opened} is after the closing ({closed}).")
        if first is not None and opened is not None and first < opened:
            why = f"{opened} is after the first operator's start ({first})."
            add_error(errors, "opened_on", why)
        check_same_agency(errors, "parcel", establishment.parcel, agency)
        check_coordinates(errors, establishment.latitude, establishment.longitude)

    return _update(establishment, values, check, "establishment.update", actor)


def establishment_close(
    *,
    establishment: FoodServiceEstablishment,
    closed_on: date,
    today: date,
    actor: Actor = None,
    reason: str = "",
) -> FoodServiceEstablishment:
    """The establishment closed on `closed_on`: not before it opened, not in the future."""
    errors: Errors = {}
    check_not_future(errors, today, closed_on=closed_on)
    refuse(errors)
    record_end(
        establishment, field="closed_on", on=closed_on, started_on=establishment.opened_on,
        started="the opening", ended="closed", action="establishment.close", actor=actor,
        reason=reason,
    )  # fmt: skip
    return establishment


def establishment_reopen(
    *, establishment: FoodServiceEstablishment, actor: Actor = None, reason: str = ""
) -> FoodServiceEstablishment:
    """A closed establishment is open again: its closing date is cleared (audited)."""
    with transaction.atomic():
        lock(establishment)
        if establishment.closed_on is None:
            refuse({"closed_on": [f"{establishment} is not closed."]})
        before = snapshot(establishment)
        establishment.closed_on = None
        establishment.save(update_fields=["closed_on"])
        audit("establishment.reopen", establishment, actor, before=before, reason=reason)
    return establishment


def operation_change_record(
    *,
    establishment: FoodServiceEstablishment,
    kind: str,
    date: date,
    today: date,
    notified_on: date | None = None,
    description: str = "",
    actor: Actor = None,
) -> OperationChange:
    """A remodel, expansion or process change, planned or done on `date`, and the day the
    agency was told of it (the Town's ordinance wants notice ahead: the engine checks it). A
    remodel is also the establishment's latest remodel when it is the latest one."""
    change = OperationChange(
        establishment=establishment, kind=kind, date=date, notified_on=notified_on,
        description=description.strip(),
    )  # fmt: skip
    errors: Errors = {}
    check_not_future(errors, today, notified_on=notified_on)
    check_order(errors, "date", date, establishment.opened_on, "the opening")
    if establishment.closed_on is not None and date > establishment.closed_on:
        add_error(errors, "date", f"{establishment} closed on {establishment.closed_on}.")
    check_model(change, errors, exclude=["establishment"])
    refuse(errors)
    remodeled = kind == "remodel" and (
        establishment.remodeled_on is None or date > establishment.remodeled_on
    )
    with transaction.atomic():
        change.save()
        audit("operation_change.record", change, actor)
        if remodeled:
            before = snapshot(establishment)
            establishment.remodeled_on = date
            establishment.save(update_fields=["remodeled_on"])
            audit("establishment.remodel", establishment, actor, before=before)
    return change


def operator_update(
    *, operator: Operator, name: str, phone: str, email: str, mailing_address: str,
    actor: Actor = None,
) -> bool:  # fmt: skip
    """The operator's name and contact details as given (the contact checked as the portal's
    form checks it). Returns whether anything changed."""
    name = name.strip()
    errors: Errors = {}
    if not name:
        add_error(errors, "name", "This field cannot be blank.")
    refuse(errors)
    with transaction.atomic():
        lock(operator)
        renamed = name != operator.name
        if renamed:
            before = snapshot(operator)
            operator.name = name
            operator.save(update_fields=["name"])
            audit("operator.rename", operator, actor, before=before)
        changed = operator_contact_update(
            operator=operator, phone=phone, email=email, mailing_address=mailing_address,
            actor=actor,
        )  # fmt: skip
    return renamed or changed


def _check_phone(errors: Errors, phone: str) -> None:
    if phone and (not _PHONE.match(phone) or sum(c.isdigit() for c in phone) < 7):
        add_error(errors, "phone", f"{phone!r} is not a phone number.")

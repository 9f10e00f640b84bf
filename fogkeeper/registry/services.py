"""Writes of the registry (establishments, operators, devices, haulers), and the checks
every app's services share (refuse, add_error, check_model, audit...).

Every service validates everything first and raises one `ValidationError` keyed by field,
then saves inside one transaction together with its audit rows: a refused write changes
nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, transaction
from django.utils import timezone

from fogkeeper.audit.services import audit_record, snapshot
from fogkeeper.locks import hold_row
from fogkeeper.reevaluation import reevaluate_ids_on_commit, reevaluate_on_commit

from .models import (
    Agency,
    ApprovedException,
    FoodServiceEstablishment,
    GreaseControlDevice,
    Hauler,
    IntervalApproval,
    OperationChange,
    Operator,
    OperatorTenure,
    Parcel,
    normalise_address,
)
from .selectors import record_agency

Errors = dict[str, list[str]]
Actor = User | None  # who acts: a user, or None for the system

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
                    key = (error.params or {})["unique_check"][-1]
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


def check_within_depth(
    errors: Errors, field: str, device: Any, fog: Decimal | None, solids: Decimal | None
) -> None:
    """FOG and solids measured in `device` fill at most its design depth: 60 in of solids in a
    48-in interceptor is a misreading, and stored it opened a violation at 129% (issue 39)."""
    depth = getattr(device, "design_depth_inches", None)
    total = (fog or 0) + (solids or 0)
    if depth is None or total <= depth or (fog is not None and fog < 0) or (solids or 0) < 0:
        return
    add_error(
        errors,
        field,
        f"{device.code}: FOG ({_inches(fog)} in) and solids ({_inches(solids)} in) come to "
        f"{_inches(total)} in, more than its design depth of {_inches(depth)} in; check the "
        "readings.",
    )


def _inches(inches: Decimal | int | None) -> str:
    """A depth in inches as the message writes it."""
    return f"{float(inches or 0):g}"  # 48.00 as 48, 12.50 as 12.5


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
        agency=agency,
        name=name.strip(),
        mailing_address=mailing_address.strip(),
        phone=phone.strip(),
        email=email.strip(),
    )
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


def operator_named(errors: Errors, operator: Operator | str, agency: Agency) -> Operator | None:
    """An existing operator of the agency, or a new one (unsaved) named by a string."""
    if isinstance(operator, str):
        new = Operator(agency=agency, name=operator.strip())
        check_model(new, errors, prefix="operator")
        return new
    check_same_agency(errors, "operator", operator, agency)
    return operator


def operator_save(operator: Operator, actor: Actor) -> None:
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
    state: str = "",
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
        state=state,
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
    op = operator_named(errors, operator, agency)
    refuse(errors)
    assert op is not None  # else refuse() raised: the operator named no operator
    with transaction.atomic():
        fse.save()
        audit("establishment.register", fse, actor)
        operator_save(op, actor)
        tenure = OperatorTenure(establishment=fse, operator=op, since=since)
        tenure.full_clean()
        tenure.save()
        audit("tenure.open", tenure, actor)
    reevaluate_on_commit(fse)
    return fse


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
    reevaluate_on_commit(establishment)
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
        device=device,
        field=field,
        approved_on=approved_on,
        approved_by=approved_by,
        reference=reference,
    )
    check_model(exception, errors)
    refuse(errors)
    with transaction.atomic():
        exception.save()
        audit("device.exception_approve", exception, actor)
    reevaluate_on_commit(device.establishment)
    return exception


def device_interval_approve(
    *,
    device: GreaseControlDevice,
    days: int,
    approved_on: date,
    approved_by: str,
    reference: str,
    ends_on: date | None = None,
    actor: Actor = None,
) -> IntervalApproval:
    """A longer pump-out interval approved for the device by a named official, on record
    with its reference; the engine uses it for a pump-out falling due from `approved_on`
    through `ends_on`. Audited as every device write."""
    errors: Errors = {}
    approval = IntervalApproval(
        device=device,
        days=days,
        approved_on=approved_on,
        approved_by=approved_by.strip(),
        reference=reference.strip(),
        ends_on=ends_on,
    )
    check_model(approval, errors)
    refuse(errors)
    with transaction.atomic():
        approval.save()
        audit("device.interval_approve", approval, actor)
    reevaluate_on_commit(device.establishment)
    return approval


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
        device,
        field="removed_on",
        on=removed_on,
        started_on=device.installed_on,
        started="its installation",
        ended="was removed",
        action="device.remove",
        actor=actor,
        reason=reason,
    )
    reevaluate_on_commit(device.establishment)
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
    **certification,
) -> Hauler:
    hauler = Hauler(
        agency=agency,
        code=code,
        name=name,
        licence_number=licence_number,
        licence_expires_on=licence_expires_on,
        licensed=licensed,
        **certification,
    )
    errors: Errors = {}
    check_model(hauler, errors)
    refuse(errors)
    with transaction.atomic():
        hauler.save()
        audit("hauler.register", hauler, actor)
    return hauler


# -- the registry kept current from the staff pages ---------------------------------------

ESTABLISHMENT_FIELDS = (
    "name",
    "address",
    "city",
    "state",
    "zip_code",
    "category",
    "opened_on",
    "parcel",
    "on_public_sewer",
    "latitude",
    "longitude",
)


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

    reevaluate_on_commit(establishment)
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
        establishment,
        field="closed_on",
        on=closed_on,
        started_on=establishment.opened_on,
        started="the opening",
        ended="closed",
        action="establishment.close",
        actor=actor,
        reason=reason,
    )
    reevaluate_on_commit(establishment)
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
    reevaluate_on_commit(establishment)
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
        establishment=establishment,
        kind=kind,
        date=date,
        notified_on=notified_on,
        description=description.strip(),
    )
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
    reevaluate_on_commit(establishment)
    return change


def operator_update(
    *,
    operator: Operator,
    name: str,
    phone: str,
    email: str,
    mailing_address: str,
    actor: Actor = None,
) -> bool:
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
            _reevaluate_operated(operator)
        changed = operator_contact_update(
            operator=operator,
            phone=phone,
            email=email,
            mailing_address=mailing_address,
            actor=actor,
        )
    return renamed or changed


def _reevaluate_operated(operator: Operator) -> None:
    """The establishments it operates or operated: their case files carry the operator's
    name (the engine compares it with the permit's holder)."""
    tenures = OperatorTenure.objects.filter(operator=operator)
    reevaluate_ids_on_commit(operator.agency_id, tenures.values_list("establishment_id", flat=True))


def _check_phone(errors: Errors, phone: str) -> None:
    if phone and (not _PHONE.match(phone) or sum(c.isdigit() for c in phone) < 7):
        add_error(errors, "phone", f"{phone!r} is not a phone number.")

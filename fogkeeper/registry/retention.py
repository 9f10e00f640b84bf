"""The deletion of any program record, which the pack's record retention period may refuse:
a record is kept while current and for the period after its date; the audit trail never."""

from __future__ import annotations

from datetime import date, timedelta
from functools import partial
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, transaction
from django.db.models.deletion import ProtectedError, RestrictedError

from fogkeeper.audit.services import establishment_id_of, snapshot
from fogkeeper.reevaluation import reevaluate_ids_on_commit
from fogkeeper.rules.calendar import Duration
from fogkeeper.rules.errors import ParameterNotInForce

from .selectors import record_agency
from .services import Actor, audit

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
    assert agency is not None  # a record with a retention period is an agency's
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
        accessor = rel.get_accessor_name()
        if rel.one_to_many and rel.on_delete is models.CASCADE and accessor is not None:
            before[accessor] = [snapshot(child) for child in getattr(obj, accessor).all()]
    why = reason or f"deleted on {on}"
    establishment, agency = establishment_id_of(obj), record_agency(obj)
    try:
        with transaction.atomic():
            audit(
                f"{obj._meta.model_name}.delete", obj, actor, before=before, after=None, reason=why
            )
            files = [
                f
                for f in (
                    getattr(obj, d.attname)
                    for d in obj._meta.concrete_fields
                    if isinstance(d, models.FileField)
                )
                if f
            ]
            obj.delete()
            for file in files:  # the record's files go with it, once the deletion is committed
                transaction.on_commit(partial(file.storage.delete, file.name))
        if establishment is not None and agency is not None:  # its case file lost the record
            reevaluate_ids_on_commit(agency.pk, [establishment])
    except (ProtectedError, RestrictedError) as e:
        referring = e.protected_objects if isinstance(e, ProtectedError) else e.restricted_objects
        others = sorted({str(o._meta.verbose_name_plural) for o in referring})
        raise ValidationError(
            {NON_FIELD_ERRORS: [f"{obj} is still referred to by {', '.join(others)}."]}
        ) from None

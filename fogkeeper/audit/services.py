"""Writing the audit trail. Call `audit_record` inside the transaction of the change."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any, overload
from uuid import UUID

from django.db import models
from django.db.models.fields.files import FieldFile

from .models import AuditEvent


def plain(value: Any) -> Any:
    """A field's value as the audit trail keeps it in JSON (a snapshot, an import's change)."""
    if isinstance(value, date | datetime):
        return value.isoformat()
    if isinstance(value, Decimal | UUID):
        return str(value)
    if isinstance(value, models.Model):
        return value.pk
    if isinstance(value, FieldFile):
        return value.name or ""
    return value


@overload
def snapshot(obj: models.Model) -> dict[str, Any]: ...
@overload
def snapshot(obj: None) -> None: ...
@overload
def snapshot(obj: models.Model | None) -> dict[str, Any] | None: ...
def snapshot(obj: models.Model | None) -> dict[str, Any] | None:
    """The field values of a record, as JSON-able data (foreign keys as ids)."""
    if obj is None:
        return None
    return {f.attname: plain(getattr(obj, f.attname)) for f in obj._meta.concrete_fields}


_SNAPSHOT = object()

ESTABLISHMENT = "registry.foodserviceestablishment"
# The foreign keys that lead from a record to its establishment, tried in this order (a
# device's, a service's through its device, an invoice's through its incident…).
TOWARDS_ESTABLISHMENT = (
    "establishment",
    "device",
    "service",
    "inspection",
    "training",
    "permit",
    "case",
    "action",
    "invoice",
    "lien",
    "incident",
)


def establishment_id_of(obj: models.Model, depth: int = 4) -> int | None:
    """The id of the establishment `obj` is about: its own for an establishment, the one it
    names (read from `establishment_id`, no query), else the establishment of the record it
    belongs to (a device, a permit…); None for a record of no establishment."""
    if obj._meta.label_lower == ESTABLISHMENT:
        return obj.pk
    if depth == 0:
        return None
    names = {f.name for f in obj._meta.concrete_fields if f.is_relation}
    for name in TOWARDS_ESTABLISHMENT:
        if name not in names or getattr(obj, f"{name}_id") is None:
            continue
        if name == "establishment":
            return getattr(obj, f"{name}_id")
        found = establishment_id_of(getattr(obj, name), depth - 1)
        if found is not None:
            return found
    return None


def audit_record(
    *,
    action: str,
    obj: models.Model,
    actor: Any = None,
    agency: Any = None,
    before: dict[str, Any] | None = None,
    after: Any = _SNAPSHOT,
    reason: str = "",
) -> AuditEvent:
    """One audit row: who (`actor`, a user or None for the system) did `action` to `obj`.
    `after` defaults to the record as it is now; pass None for a deletion."""
    if agency is None:
        agency = getattr(obj, "agency", None)
        if agency is None and hasattr(obj, "establishment"):
            agency = obj.establishment.agency
    return AuditEvent.objects.create(
        action=action,
        object_type=obj._meta.label_lower,
        object_id=str(obj.pk),
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        agency=agency,
        establishment_id=establishment_id_of(obj),
        before=before,
        after=snapshot(obj) if after is _SNAPSHOT else after,
        reason=reason,
    )

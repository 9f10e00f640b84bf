"""Reading the audit trail: an agency's rows, filtered, and what each row changed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from .models import AuditEvent

SYSTEM = "system"  # the `who` of a row no person wrote (an import, the sweep, a command)


def trail(*, agency, establishment=None) -> QuerySet[AuditEvent]:
    """The agency's audit rows, newest first (only those about `establishment` if given)."""
    rows = AuditEvent.objects.filter(agency=agency)
    if establishment is not None:
        rows = rows.filter(establishment=establishment)
    return rows.select_related("actor", "establishment").order_by("-at", "-id")


def kind_of(action: str) -> str:
    """The kind of change an action is: its prefix ("permit" of "permit.issue")."""
    return action.split(".", 1)[0]


def filtered(
    rows: QuerySet[AuditEvent],
    *,
    agency,
    who: str = "",
    kind: str = "",
    object_type: str = "",
    record: str = "",
    date_from: date | None = None,
    date_to: date | None = None,
) -> QuerySet[AuditEvent]:
    """`rows` by who wrote them (a user's id or SYSTEM), the kind of change, the type of
    record, the record (an establishment's code: the rows about it and its records; else a
    record's id) and the days (inclusive, in the agency's time zone)."""
    if who == SYSTEM:
        rows = rows.filter(actor__isnull=True)
    elif who:
        rows = rows.filter(actor_id=who)
    if kind:
        rows = rows.filter(Q(action=kind) | Q(action__startswith=f"{kind}."))
    if object_type:
        rows = rows.filter(object_type=object_type)
    if record:
        rows = _by_record(rows, agency, record.strip())
    if date_from is not None and date_from > date.min:
        rows = rows.filter(at__gte=_start_of(date_from))
    if date_to is not None and date_to < date.max - timedelta(days=1):
        rows = rows.filter(at__lt=_start_of(date_to + timedelta(days=1)))
    return rows


def _by_record(rows: QuerySet[AuditEvent], agency, record: str) -> QuerySet[AuditEvent]:
    establishments = AuditEvent._meta.get_field("establishment").related_model.objects
    fse = establishments.filter(agency=agency, code__iexact=record).first()
    if fse is not None:
        return rows.filter(establishment_id=fse.pk)
    return rows.filter(object_id=record)


def _start_of(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def actors(*, agency):
    """Whoever may have written the agency's rows: its members, and anyone who wrote one
    (a member since removed, a superuser), by name."""
    wrote = AuditEvent.objects.filter(agency=agency, actor=OuterRef("pk"))
    return (
        get_user_model()
        .objects.filter(Q(memberships__agency=agency) | Exists(wrote))
        .distinct()
        .order_by("last_name", "first_name", "username")
    )


def kinds(*, agency) -> list[str]:
    """The kinds of change the agency's trail holds (the actions' prefixes), sorted."""
    actions = AuditEvent.objects.filter(agency=agency).order_by().values_list("action")
    return sorted({kind_of(a) for (a,) in actions.distinct()})


def object_types(*, agency) -> list[str]:
    rows = AuditEvent.objects.filter(agency=agency).order_by().values_list("object_type")
    return sorted({t for (t,) in rows.distinct()})


def type_words(label: str) -> str:
    """A record type in words: "maintenance.service" -> "Service"."""
    try:
        name = apps.get_model(label)._meta.verbose_name
    except (LookupError, ValueError):
        name = label.rsplit(".", 1)[-1].replace("_", " ")
    return str(name)[:1].upper() + str(name)[1:]


def person(user) -> str:
    if user is None:
        return "The system"
    return user.get_full_name() or user.username


@dataclass
class Change:
    field: str  # the field in words
    old: str
    new: str


def changes(event: AuditEvent) -> list[Change]:
    """The fields a row changed, old and new in words: every field of a record created (or
    deleted), only those that differ otherwise."""
    before, after = _fields(event.before), _fields(event.after)
    if event.before is None or event.after is None:
        names = list(after or before)
    else:
        names = [n for n in dict.fromkeys([*before, *after]) if before.get(n) != after.get(n)]
    label = _field_words(event.object_type)
    return [Change(label(n), value_words(before.get(n)), value_words(after.get(n))) for n in names]


def _fields(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    return value if isinstance(value, dict) else {"value": value}


def _field_words(label: str):
    try:
        meta = apps.get_model(label)._meta
    except (LookupError, ValueError):
        meta = None

    def words(name: str) -> str:
        try:
            field = meta.get_field(name) if meta else None
        except FieldDoesNotExist:  # a key of no field (a note of the service writing it)
            field = None
        # a deleted record's children are kept under their relation's name (no verbose name)
        text = str(getattr(field, "verbose_name", "") or name.replace("_", " "))
        return text[:1].upper() + text[1:]

    return words


def value_words(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict | list):
        return json_text(value)
    return str(value)


def json_text(value: Any) -> str:
    """Before or after as JSON text (for an export), nothing for nothing."""
    if value is None:
        return ""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))

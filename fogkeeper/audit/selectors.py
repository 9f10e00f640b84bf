"""Reading the audit trail: an agency's rows, filtered, and what each row changed."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Exists, F, OuterRef, Q, QuerySet, TextField, Value
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone

from .models import AuditEvent

_SNAKE = re.compile(r"[a-z]+(_[a-z0-9]+)+")
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
        rows = rows.filter(actor_id=who)  # type: ignore[misc]  # the id as text, the form's choice
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
    related: Any = AuditEvent._meta.get_field("establishment").related_model
    establishments = related.objects
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


def kinds_and_types(*, agency) -> tuple[list[str], list[str]]:
    """The kinds of change the agency's trail holds (the actions' prefixes) and the types of
    record it is about, each sorted, from one query (the filters' choices)."""
    pairs = AuditEvent.objects.filter(agency=agency).order_by().values_list("action", "object_type")
    found = set(pairs.distinct())
    return sorted({kind_of(a) for a, _ in found}), sorted({t for _, t in found})


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
    # a record's own id, or a value that is data not words (a run's timings, a list of
    # errors): shown under the row's technical details, not as what changed
    technical: bool = False
    model: Any = None  # the model a foreign key's ids are of, named in words by `name_related`
    ids: tuple = ()


def changes(event: AuditEvent) -> list[Change]:
    """The fields a row changed, old and new in words: every field of a record created (or
    deleted), only those that differ otherwise."""
    before, after = _fields(event.before), _fields(event.after)
    if event.before is None or event.after is None:
        names = list(after or before)
    else:
        names = [n for n in dict.fromkeys([*before, *after]) if before.get(n) != after.get(n)]
    meta = _meta_of(event.object_type)
    return [_change(meta, n, before.get(n), after.get(n)) for n in names]


def _change(meta, name: str, old: Any, new: Any) -> Change:
    field = _field_of(meta, name)
    text = str(getattr(field, "verbose_name", "") or name.replace("_", " "))
    shown = _choice_words(field)
    change = Change(text[:1].upper() + text[1:], shown(old), shown(new))
    change.technical = bool(getattr(field, "primary_key", False)) or any(
        isinstance(v, dict | list) for v in (old, new)
    )
    if getattr(field, "many_to_one", False) and not change.technical:
        change.model, change.ids = field.related_model, (old, new)
    return change


def _choice_words(field):
    """A value in words, a field's choice by its label ("Interceptor", not "interceptor")."""
    labels = {str(k): str(v) for k, v in (getattr(field, "flatchoices", None) or [])}

    def words(value: Any) -> str:
        if labels and not isinstance(value, dict | list) and str(value) in labels:
            return labels[str(value)]
        return value_words(value)

    return words


def name_related(rows: list[list[Change]]) -> None:
    """Put the records a change's foreign keys name in words ("Pier Taqueria (SC-1)", not
    "128"), for a whole page of rows in one query (`_words_at_once`), and one more for each
    model whose words need its records (record_words)."""
    wanted: dict[Any, set] = {}
    for change in (c for row in rows for c in row if c.model is not None):
        wanted.setdefault(change.model, set()).update(i for i in change.ids if i is not None)
    found = _words_at_once({m: ids for m, ids in wanted.items() if _worded(m)})
    for model, ids in wanted.items():
        words = found.setdefault(model, {})
        unsaid = {pk for pk, w in words.items() if w is None} if _worded(model) else ids
        if unsaid:
            records = model._base_manager.filter(pk__in=unsaid)
            words.update({o.pk: record_words(o) for o in records})
    for change in (c for row in rows for c in row if c.model is not None):
        words = found.get(change.model, {})
        old, new = change.ids
        change.old = _named(words, old, change.old)
        change.new = _named(words, new, change.new)


_WORDS = ("code", "number", "name", "title")
_TEXT = {"CharField", "SlugField", "TextField"}
_INTEGER_KEYS = {"AutoField", "BigAutoField"}


@functools.cache
def _worded(model) -> bool:
    """Whether the model's code, number, name and title fields alone say its records in
    words; not where record_words needs the record itself (a person, a record named by its
    __str__, a word that is not a text field)."""
    fields = {f.name: f for f in model._meta.concrete_fields}
    present = [w for w in _WORDS if w in fields]
    return not (
        hasattr(model, "get_full_name")
        or model._meta.pk.get_internal_type() not in _INTEGER_KEYS
        or not present
        or any(fields[w].get_internal_type() not in _TEXT for w in present)
        or any(hasattr(model, w) for w in _WORDS if w not in fields)
    )


def _word_columns(model) -> dict[str, Any]:
    """The model's code, number, name and title as columns of text ("" where it has none)."""
    fields = {f.name for f in model._meta.concrete_fields}
    blank = Value("")
    return {
        f"w_{w}": Cast(Coalesce(F(w), blank) if w in fields else blank, TextField()) for w in _WORDS
    }


def _words_at_once(wanted: dict[Any, set]) -> dict[Any, dict[Any, str | None]]:
    """The records `wanted` (model -> ids) in words, from one query of all their models
    together (UNION ALL); None for a record with neither code nor name, which record_words
    says as its model does."""
    models = [m for m, ids in wanted.items() if ids]
    parts = [
        m._base_manager.filter(pk__in=wanted[m])
        .order_by()
        .annotate(which=Value(i), **_word_columns(m))
        .values_list("which", "pk", *(f"w_{w}" for w in _WORDS))
        for i, m in enumerate(models)
    ]
    if not parts:
        return {}
    found: dict[Any, dict[Any, str | None]] = {}
    for which, pk, code, number, name, title in parts[0].union(*parts[1:], all=True):
        model = models[which]
        found.setdefault(model, {})[pk] = _said(model, code or number, name or title)
    return found


def _named(words: dict, pk: Any, shown: str) -> str:
    if pk is None:
        return shown
    return words.get(pk, "a record since deleted")


def record_words(obj) -> str:
    """A record as a person knows it: "Pier Taqueria (SC-1)", its code, its name, a person's
    name; never its database id."""
    if hasattr(obj, "get_full_name"):
        return person(obj)
    code = getattr(obj, "code", "") or getattr(obj, "number", "")
    name = getattr(obj, "name", "") or getattr(obj, "title", "")
    said = _said(type(obj), code, name)
    return str(obj) if said is None else said


def _said(model, code: Any, name: Any) -> str | None:
    """A record by its code and name; None where it has neither."""
    if model._meta.label_lower == "registry.agency":
        return str(name)  # its code is the address's, not a code people use
    if code and name:
        return f"{name} ({code})"
    return str(code or name) if code or name else None


def label_of(event: AuditEvent) -> str:
    """A row's record by what people call it (its code, number or name as stored), or ""."""
    values = _fields(event.after) or _fields(event.before)
    code = values.get("code") or values.get("number") or ""
    name = values.get("name") or values.get("title") or values.get("username") or ""
    if code and name:
        return f"{name} ({code})"
    return str(code or name)


def _fields(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    return value if isinstance(value, dict) else {"value": value}


def _meta_of(label: str):
    try:
        return apps.get_model(label)._meta
    except (LookupError, ValueError):
        return None


def _field_of(meta, name: str):
    try:
        return meta.get_field(name) if meta else None
    except FieldDoesNotExist:  # a key of no field (a note of the service writing it)
        return None  # a deleted record's children are kept under their relation's name


def value_words(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict | list):
        return json_text(value)
    if isinstance(value, str) and _SNAKE.fullmatch(value):
        return value.replace("_", " ")  # a pack's value ("limited_food_preparation") in words
    return str(value)


def json_text(value: Any) -> str:
    """Before or after as JSON text (for an export), nothing for nothing."""
    if value is None:
        return ""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))

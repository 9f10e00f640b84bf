"""Rows carried inside another query as JSON and made model instances again: the establishment
page reads its short lists, and each row's few rows of its own (an inspection's photos, an
action's answers), in the query of the row they belong to rather than in a query each (issue
41: a staff page in at most 15 queries whatever the establishment holds)."""

from __future__ import annotations

from typing import Any

from django.contrib.postgres.expressions import ArraySubquery
from django.db import router
from django.db.models import DecimalField, F, Model, QuerySet, TextField
from django.db.models.functions import Cast, JSONObject


def _columns(model: type[Model], prefix: str = "") -> dict[str, Any]:
    """Each concrete column of `model` by its attribute name; decimals as text, so that they
    are read back exactly rather than as floats."""
    out: dict[str, Any] = {}
    for f in model._meta.concrete_fields:
        ref = F(prefix + f.attname)
        out[f.attname] = Cast(ref, TextField()) if isinstance(f, DecimalField) else ref
    return out


def json_row(model: type[Model], related: tuple[str, ...] = (), **extra) -> JSONObject:
    """A row of `model` as one JSON object: its columns, each `related` row (a foreign key
    followed) under its name, and the `extra` expressions under theirs."""
    columns = _columns(model)
    for name in related:
        target = model._meta.get_field(name).related_model
        columns[name] = JSONObject(**_columns(target, f"{name}__"))  # type: ignore[arg-type]
    return JSONObject(**columns, **extra)


def json_rows(rows: QuerySet, related: tuple[str, ...] = (), **extra) -> ArraySubquery:
    """`rows` (in their order) as an array of json_row objects, for an annotation."""
    return ArraySubquery(rows.values(row=json_row(rows.model, related, **extra)))


def instance(model: type[Model], data: dict[str, Any], related: tuple[str, ...] = ()) -> Any:
    """The model instance a json_row object was read from, its `related` rows set on it (None
    where its foreign key is empty); the object's extra keys are left to the caller."""
    fields = model._meta.concrete_fields
    obj = model.from_db(
        router.db_for_read(model),
        [f.attname for f in fields],
        [f.to_python(data[f.attname]) for f in fields],
    )
    for name in related:
        target: Any = model._meta.get_field(name).related_model
        row = data[name]
        setattr(obj, name, instance(target, row) if row[target._meta.pk.attname] else None)
    return obj


def instances(model: type[Model], rows: list | None, related: tuple[str, ...] = ()) -> list:
    """The instances of an array of json_row objects (none where the array is empty)."""
    return [instance(model, row, related) for row in rows or []]

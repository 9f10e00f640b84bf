"""Rows carried inside another query as JSON and made model instances again: the establishment
page reads its short lists, and each row's few rows of its own (an inspection's photos, an
action's answers), in the query of the row they belong to rather than in a query each (issue
41: a staff page in at most 15 queries whatever the establishment holds). PostgreSQL reads an
array of rows with ARRAY(subquery); SQLite (the one-command start's) with json_group_array."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from django.contrib.postgres.expressions import ArraySubquery
from django.db import connections, router
from django.db.models import DateTimeField, DecimalField, F, JSONField, Model, QuerySet, TextField
from django.db.models.functions import Cast, JSONObject


class JSONRows(ArraySubquery):
    """The rows of a subquery of one JSON column (`values(row=...)`), as a list: ARRAY() on
    PostgreSQL; on SQLite a JSON array (json() keeps it JSON where it is nested in another
    row's object), read back as a list."""

    def as_sqlite(self, compiler, connection, **extra_context):
        template = "json((SELECT json_group_array(json(row)) FROM (%(subquery)s)))"
        return self.as_sql(compiler, connection, template=template, **extra_context)

    def get_db_converters(self, connection):
        if connection.vendor == "postgresql":
            return super().get_db_converters(connection)
        return [_json_list]


def _json_list(value, expression, connection):
    return json.loads(value) if isinstance(value, str) else value


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


def json_rows(rows: QuerySet, related: tuple[str, ...] = (), **extra) -> JSONRows:
    """`rows` (in their order) as an array of json_row objects, for an annotation."""
    return JSONRows(rows.values(row=json_row(rows.model, related, **extra)))


def instance(model: type[Model], data: dict[str, Any], related: tuple[str, ...] = ()) -> Any:
    """The model instance a json_row object was read from, its `related` rows set on it (None
    where its foreign key is empty); the object's extra keys are left to the caller."""
    fields = model._meta.concrete_fields
    database = router.db_for_read(model)
    plain = connections[database].vendor != "postgresql"
    obj = model.from_db(
        database,
        [f.attname for f in fields],
        [_value(f, data[f.attname], plain) for f in fields],
    )
    for name in related:
        target: Any = model._meta.get_field(name).related_model
        row = data[name]
        setattr(obj, name, instance(target, row) if row[target._meta.pk.attname] else None)
    return obj


def instances(model: type[Model], rows: list | None, related: tuple[str, ...] = ()) -> list:
    """The instances of an array of json_row objects (none where the array is empty)."""
    return [instance(model, row, related) for row in rows or []]


def _value(field, value, plain: bool) -> Any:
    """A column's value read from a json_row. SQLite's rows carry what it stores: a JSON
    column's text, a decimal without its places, a moment without its zone (UTC, as Django
    writes it)."""
    if plain and isinstance(field, JSONField) and isinstance(value, str):
        return json.loads(value)
    value = field.to_python(value)
    if plain and isinstance(field, DecimalField) and value is not None:
        return value.quantize(Decimal(1).scaleb(-field.decimal_places))
    naive = isinstance(value, datetime) and value.tzinfo is None
    if plain and isinstance(field, DateTimeField) and naive:
        return value.replace(tzinfo=UTC)
    return value

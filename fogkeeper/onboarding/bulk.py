"""Writing an onboarding's records in bulk: new rows by COPY on PostgreSQL (bulk_create
elsewhere), every other field of the model at its default; changed rows by bulk_update.
Nothing here checks: the importer has checked every row before anything is written."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from django.db import connection
from django.utils import timezone

BATCH = 2_000


def _default(field) -> Any:
    """What a field left out of a record holds (None for a field without a default: the
    database refuses it if the column needs a value, and the whole file is not stored)."""
    if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
        return timezone.now()
    return field.get_default()


def insert(model, records: list[dict]) -> None:
    """Store `records` (field attname -> value) as new rows of `model`."""
    if not records:
        return
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    defaults = {f.attname: _default(f) for f in fields}
    if connection.vendor != "postgresql":
        model.objects.bulk_create(
            [model(**(defaults | record)) for record in records], batch_size=BATCH
        )
        return
    names = [f.attname for f in fields]
    json_fields = {f.attname for f in fields if f.get_internal_type() == "JSONField"}
    for name in json_fields:
        defaults[name] = _json(defaults[name])
    qn = connection.ops.quote_name
    sql = f"COPY {qn(model._meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        write = copy.write_row
        for record in records:
            if json_fields:
                record = {**record, **{n: _json(record[n]) for n in json_fields if n in record}}
            write(tuple([record[n] if n in record else defaults[n] for n in names]))


def _json(value):
    return json.dumps(value) if value is not None else None


def update(model, changes: list[tuple[int, dict]]) -> None:
    """Write the changed fields of each (pk, {field: new value}), those changing the same
    fields together."""
    by_fields: dict[tuple[str, ...], list] = defaultdict(list)
    for pk, fields in changes:
        by_fields[tuple(sorted(fields))].append(model(pk=pk, **fields))
    for names, objects in by_fields.items():
        model.objects.bulk_update(objects, list(names), batch_size=BATCH)

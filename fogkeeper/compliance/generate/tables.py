"""The generator's rows, a table per model, and how they are written: COPY on PostgreSQL,
bulk_create elsewhere."""

from __future__ import annotations

import json
from typing import Any


class Table:
    """Rows of one model, as tuples of the fields named, plus the model's defaults."""

    def __init__(self, model, fields: list[str]):
        self.model = model
        self.fields = fields
        rest = [
            f for f in model._meta.concrete_fields if f.attname not in fields and not f.primary_key
        ]
        self.columns = [model._meta.get_field(a).column for a in fields] + [f.column for f in rest]
        self.defaults = tuple(self._default(f) for f in rest)
        self.rest = [f.attname for f in rest]
        self.rows: list[tuple] = []
        self.count = 0

    @staticmethod
    def _default(f) -> Any:
        value = f.get_default()
        if value is None and not f.null:
            raise ValueError(f"{f.model.__name__}.{f.name} needs a value")
        return json.dumps(value) if isinstance(value, dict | list) else value

    def size(self) -> int:
        """The rows made so far, written or not."""
        return self.count + len(self.rows)


class Writer:
    """Writes tables: COPY on PostgreSQL, bulk_create elsewhere."""

    def __init__(self):
        from django.db import connection

        self.connection = connection
        self.postgres = connection.vendor == "postgresql"

    def flush(self, table: Table) -> None:
        rows = table.rows
        if not rows:
            return
        if self.postgres:
            qn = self.connection.ops.quote_name
            sql = (
                f"COPY {qn(table.model._meta.db_table)} "
                f"({', '.join(qn(c) for c in table.columns)}) FROM STDIN"
            )
            defaults = table.defaults
            with self.connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
                write = copy.write_row
                for row in rows:
                    write(row + defaults)
        else:
            model, fields = table.model, table.fields
            model.objects.bulk_create(
                [model(**dict(zip(fields, row, strict=True))) for row in rows], batch_size=2000
            )
        table.count += len(rows)
        rows.clear()

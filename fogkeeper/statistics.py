"""Fresh planner statistics after a bulk load (the demo, a generated program), as autovacuum
would gather them later: without them PostgreSQL plans the pages' queries as if the tables
were empty.

Only the application's own tables are analyzed: a bare ANALYZE also takes the shared system
catalogs, whose locks last until the loading transaction ends and so hold up every other
database of the server meanwhile (CREATE DATABASE, another ANALYZE)."""

from __future__ import annotations

from django.db import connection as default_connection


def analyze_tables(connection=default_connection) -> None:
    if connection.vendor != "postgresql":
        return
    tables = connection.introspection.django_table_names(only_existing=True)
    if tables:
        names = ", ".join(connection.ops.quote_name(t) for t in sorted(tables))
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {names}")

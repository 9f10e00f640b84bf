"""Fresh planner statistics after a bulk load (the demo, a generated program), as autovacuum
would gather them later: without them PostgreSQL plans the pages' queries as if the tables
were empty.

Only the application's own tables are analyzed: a bare ANALYZE also takes the shared system
catalogs, whose locks last until the loading transaction ends and so hold up every other
database of the server meanwhile (CREATE DATABASE, another ANALYZE)."""

from __future__ import annotations

from django.db import connection as default_connection


def analyze_tables(connection=default_connection, models=None) -> None:
    """Analyze the application's tables, or only those of `models` (after a load of a few)."""
    if connection.vendor != "postgresql":
        return
    if models is not None:
        tables = [m._meta.db_table for m in models]
    else:
        tables = connection.introspection.django_table_names(only_existing=True)
    if tables:
        names = ", ".join(connection.ops.quote_name(t) for t in sorted(tables))
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {names}")

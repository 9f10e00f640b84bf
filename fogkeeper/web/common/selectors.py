"""Reads every area's pages share: the rows of several querysets counted in one round trip
(the pages of a list or of a page's section: web/common/paging.py)."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import QuerySet


def counts(**counted: QuerySet | tuple[str, list[Any]]) -> dict[str, int]:
    """How many rows each queryset of `counted` has (or what each `(sql, params)` statement
    of a count gives), asked of the database in one statement: the figures of a page's
    chrome, which would otherwise cost a round trip each."""
    parts: list[str] = []
    params: list[Any] = []
    for name, what in counted.items():
        if not name.isidentifier():
            raise ValueError(f"not a name for a count: {name!r}")
        if isinstance(what, QuerySet):
            rows, its = what.order_by().values("pk").query.sql_with_params()
            sql, params_of = f"SELECT COUNT(*) FROM ({rows}) AS {name}_rows", list(its)
        else:
            sql, params_of = what
        parts.append(f"({sql}) AS {name}")
        params.extend(params_of)
    if not parts:
        return {}
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts), params)
        return dict(zip(counted, cursor.fetchone(), strict=True))

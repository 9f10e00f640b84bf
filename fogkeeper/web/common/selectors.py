"""Reads every area's pages share: one page of a long section of a page, counted and sliced
in SQL; the rows of several querysets counted in one round trip."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.db import connections
from django.db.models import QuerySet

SHOWN = 25  # the rows of a long list a page shows at a time (issue 15, item 7)


def section(rows, number, per: int = SHOWN) -> Page:
    """One page of a long list of a page's section (`?<section>_page=`): counted and sliced
    in SQL, never the whole list loaded."""
    return Paginator(rows, per).get_page(number)


def counts(**querysets: QuerySet) -> dict[str, int]:
    """How many rows each of `querysets` has, asked of the database in one statement (the
    figures of a page's chrome, which would otherwise cost a round trip each)."""
    parts: list[str] = []
    params: list[Any] = []
    for name, qs in querysets.items():
        if not name.isidentifier():
            raise ValueError(f"not a name for a count: {name!r}")
        sql, its = qs.order_by().values("pk").query.sql_with_params()
        parts.append(f"(SELECT COUNT(*) FROM ({sql}) AS {name}_rows) AS {name}")
        params.extend(its)
    if not parts:
        return {}
    database = next(iter(querysets.values())).db
    with connections[database].cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts), params)
        return dict(zip(querysets, cursor.fetchone(), strict=True))

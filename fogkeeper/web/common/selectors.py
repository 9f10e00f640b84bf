"""Reads every area's pages share: one page of a long section of a page, counted and sliced
in SQL; the rows of several querysets counted in one round trip."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import QuerySet

SHOWN = 25  # the rows of a long list a page shows at a time (issue 15, item 7)


def section(rows, number, per: int = SHOWN) -> Page:
    """One page of a long list of a page's section (`?<section>_page=`): counted and sliced
    in SQL, never the whole list loaded. The first page is read one row long: a section that
    ends on it (most of an establishment's) is counted from its rows, with no COUNT."""
    paginator = Paginator(rows, per)
    if not isinstance(rows, QuerySet) or str(number or 1) != "1":
        return paginator.get_page(number)
    first = list(rows[: per + 1])
    if len(first) <= per:
        paginator.count = len(first)  # a cached_property: set, it is not asked of the database
    return Page(first[:per], 1, paginator)


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

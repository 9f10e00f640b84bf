"""Reads every area's pages share: one page of a long section of a page, counted and sliced
in SQL."""

from __future__ import annotations

from django.core.paginator import Page, Paginator

SHOWN = 25  # the rows of a long list a page shows at a time (issue 15, item 7)


def section(rows, number, per: int = SHOWN) -> Page:
    """One page of a long list of a page's section (`?<section>_page=`): counted and sliced
    in SQL, never the whole list loaded."""
    return Paginator(rows, per).get_page(number)

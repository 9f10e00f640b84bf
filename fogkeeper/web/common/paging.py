"""The pages of a list: a list of the agency's history counted no further than COUNT_CAP
rows (list_page), and a long section of a page read a page at a time (section).

A list of pump-outs, inspections, findings or audit rows of an agency holding ten years of a
city's records matches hundreds of thousands of rows when unfiltered; counting them all would
read every one on each page shown. CappedPaginator counts the first COUNT_CAP + 1 matching rows
only (one `SELECT count(*)` over a LIMITed subquery of the rows' ids), says "more than 10,000"
past them and pages through the first COUNT_CAP. The filters narrow a list to the rows a person
pages through; its export gives every matching row.
"""

from __future__ import annotations

from functools import cached_property

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

COUNT_CAP = 10_000
SHOWN = 25  # the rows of a long list a page shows at a time (issue 15, item 7)


class CappedPaginator(Paginator):
    @cached_property
    def count(self) -> int:
        """The matching rows, counted up to COUNT_CAP + 1 (`capped` past COUNT_CAP)."""
        rows = self.object_list
        if not isinstance(rows, QuerySet):
            return len(rows)
        # Neither the list's order nor what it shows of each row: only which rows match.
        return rows.order_by().values("pk")[: COUNT_CAP + 1].count()

    @property
    def capped(self) -> bool:
        """Whether more rows match than are counted, and paged through."""
        return self.count > COUNT_CAP

    @cached_property
    def num_pages(self) -> int:
        """The pages of the counted rows: no page past the COUNT_CAP-th row."""
        return super().num_pages if not self.capped else -(-COUNT_CAP // self.per_page)

    @property
    def cap_text(self) -> str:
        return f"{COUNT_CAP:,}"

    @property
    def shown_count(self) -> str:
        """The count as a list says it: "143", or "more than 10,000"."""
        return f"more than {COUNT_CAP:,}" if self.capped else f"{self.count:,}"


def list_page(rows, per_page: int, number):
    """The page `number` (any text from the URL: a page past the last gives the last) of
    `rows`, counted no further than COUNT_CAP."""
    return CappedPaginator(rows, per_page).get_page(number)


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

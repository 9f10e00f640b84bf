"""The inspector's field list (`/inspections/field/`): the inspections due today (overdue
ones included) and in the week ahead, riskiest first, a page of each at a time.

The ranking is done by the database, so a page costs the same few queries however many
inspections are due: the due date is the status's `next_inspection_due` (the earliest
inspection of the schedule, stored by the sweep), the risk is computed in SQL from WEIGHTS
(`selectors.ranked`), and `FieldStop.risk` says the same in Python. Both sections are counted
in one query (`selectors.field_counts`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.core.paginator import Paginator
from django.shortcuts import render

from fogkeeper.compliance.sweep import is_inspection
from fogkeeper.registry.models import FoodServiceEstablishment

from ..common import policy
from ..common.pages import PAGE_SIZE, agency_page, page_as_of, reads_only
from .selectors import DAYS_A_MONTH, NEVER_INSPECTED_DAYS, WEIGHTS, field_counts, field_list


@dataclass
class FieldStop:
    establishment: FoodServiceEstablishment
    due: date
    obligation: str
    citation: str
    violations: int
    overflows: int
    overdue_services: int
    days_since: int | None

    @property
    def risk(self) -> float:
        days = NEVER_INSPECTED_DAYS if self.days_since is None else self.days_since
        return (
            WEIGHTS["overflows"] * self.overflows
            + WEIGHTS["violations"] * self.violations
            + WEIGHTS["overdue_services"] * self.overdue_services
            + WEIGHTS["months_since"] * days / DAYS_A_MONTH
        )


class CountedPaginator(Paginator):
    """A Paginator told its count, rather than running a COUNT of its own."""

    def __init__(self, object_list, per_page, *, count: int):
        super().__init__(object_list, per_page)
        self.count = count


def stops(establishments, as_of: date) -> list[FieldStop]:
    out = []
    for fse in establishments:
        due = fse.due.isoformat()
        items = (i for i in fse.compliance.schedule if i["due"] == due)
        first: dict[str, Any] = next((i for i in items if is_inspection(i["obligation"])), {})
        out.append(
            FieldStop(
                establishment=fse,
                due=fse.due,
                obligation=first.get("obligation", ""),
                citation=first.get("citation", ""),
                violations=fse.violations,
                overflows=fse.overflows,
                overdue_services=fse.overdue_services,
                days_since=(as_of - fse.last_inspected).days if fse.last_inspected else None,
            )
        )
    return out


@agency_page
@reads_only
def field_page(request):
    as_of = page_as_of(request)
    today, week = field_list(agency=request.agency, as_of=as_of)
    n_today, n_week = field_counts(agency=request.agency, as_of=as_of)
    pages = {
        "today": CountedPaginator(today, PAGE_SIZE, count=n_today).get_page(
            request.GET.get("page")
        ),
        "week": CountedPaginator(week, PAGE_SIZE, count=n_week).get_page(
            request.GET.get("week_page")
        ),
    }
    context = {
        "as_of": as_of,
        "today": stops(pages["today"], as_of),
        "week": stops(pages["week"], as_of),
        "pages": pages,
        "queries": {"today": _without(request, "page"), "week": _without(request, "week_page")},
        "may_inspect": policy.may_write(request.user, request.agency, "inspection"),
    }
    return render(request, "web/field/list.html", context)


def _without(request, key: str) -> str:
    query = request.GET.copy()
    query.pop(key, None)
    return query.urlencode()

"""The inspector's field list (`/inspections/field/`): the inspections due today (overdue
ones included) and in the week ahead, riskiest first, a page of each at a time.

The ranking is done by the database, so a page costs the same few queries however many
inspections are due: the due date is the status's `next_inspection_due` (the earliest
inspection of the schedule, stored by the sweep), the risk is computed in SQL from WEIGHTS
(`ranked`), and `FieldStop.risk` says the same in Python. Both sections are counted in one
query (`field_counts`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.core.paginator import Paginator
from django.db.models import (
    Count,
    F,
    FloatField,
    Func,
    IntegerField,
    OuterRef,
    Subquery,
    Value,
)
from django.db.models.functions import Cast, Coalesce
from django.shortcuts import render

from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.sweep import is_inspection
from fogkeeper.incidents.models import Incident
from fogkeeper.inspections.models import Inspection
from fogkeeper.registry.models import Agency, FoodServiceEstablishment

from ..common import policy
from ..common.pages import PAGE_SIZE, agency_page, page_as_of, reads_only
from .selectors import inspections_due, inspections_due_by

OVERFLOW_WINDOW = timedelta(days=365)
# How much each sign of risk weighs in the ranking: an overflow the FSE caused in the last year
# counts most, then an open violation, an overdue pump-out, and each month since the last
# inspection (never inspected: as if it were NEVER_INSPECTED_DAYS ago).
WEIGHTS = {"overflows": 20, "violations": 10, "overdue_services": 5, "months_since": 1}
NEVER_INSPECTED_DAYS = 3 * 365
DAYS_A_MONTH = 30
STOP_FIELDS = ("code", "name", "address", "city", "compliance__schedule")


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


class DaysBetween(Func):
    """Whole days from the date `start` to the date `end`."""

    output_field = IntegerField()
    template = "(%(expressions)s)"
    arg_joiner = " - "

    def __init__(self, start, end):
        super().__init__(end, start)

    def as_sqlite(self, compiler, connection, **extra):
        return self.as_sql(
            compiler,
            connection,
            template="CAST(julianday(%(expressions)s) AS INTEGER)",
            arg_joiner=") - julianday(",
            **extra,
        )


def _count(queryset) -> Coalesce:
    """The number of rows of `queryset` (correlated with OuterRef), 0 for none."""
    counted = queryset.order_by().values("establishment").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def ranked(*, agency: Agency, as_of: date):
    """The agency's open establishments with an inspection due by the end of the week ahead,
    with what their risk is made of, riskiest first (then earliest due, then by code)."""
    overflows = Incident.objects.filter(
        establishment=OuterRef("pk"),
        attributed=True,
        kind="overflow",
        date__gt=as_of - OVERFLOW_WINDOW,
        date__lte=as_of,
    )
    overdue = Finding.objects.filter(
        establishment=OuterRef("pk"), open=True, rule="gcd.service_overdue"
    )
    last = Inspection.objects.filter(establishment=OuterRef("pk"), date__lte=as_of).order_by(
        "-date"
    )
    days = Coalesce(DaysBetween(F("last_inspected"), Value(as_of)), NEVER_INSPECTED_DAYS)
    return (
        inspections_due_by(agency, as_of)
        .select_related("compliance")
        .only(*STOP_FIELDS)
        .annotate(
            due=F("compliance__next_inspection_due"),
            violations=F("compliance__open_violations"),
            overflows=_count(overflows),
            overdue_services=_count(overdue),
            last_inspected=Subquery(last.values("date")[:1]),
        )
        .annotate(
            risk=WEIGHTS["overflows"] * F("overflows")
            + WEIGHTS["violations"] * F("violations")
            + WEIGHTS["overdue_services"] * F("overdue_services")
            + WEIGHTS["months_since"] * Cast(days, FloatField()) / float(DAYS_A_MONTH)
        )
        .order_by("-risk", "due", "code")
    )


def field_list(*, agency: Agency, as_of: date):
    """(due today or overdue, due in the six days after), each ranked riskiest first: lazy
    querysets of establishments, for `stops` to make FieldStops of a page of them."""
    establishments = ranked(agency=agency, as_of=as_of)
    return establishments.filter(due__lte=as_of), establishments.filter(due__gt=as_of)


def field_counts(*, agency: Agency, as_of: date) -> tuple[int, int]:
    """How many establishments `field_list` has in each section (the dashboard's figures)."""
    return inspections_due(agency=agency, as_of=as_of)


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

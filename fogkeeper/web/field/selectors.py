"""Reads of the field pages: the establishments with an inspection due, counted for the
field list's two sections and the dashboard's figures, and ranked riskiest first by the
database for the list and the day's route."""

from __future__ import annotations

from datetime import date, timedelta

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

from fogkeeper.compliance.dashboard import inspections_due, inspections_due_by
from fogkeeper.compliance.models import Finding
from fogkeeper.incidents.models import Incident
from fogkeeper.inspections.models import Inspection
from fogkeeper.registry.models import Agency

OVERFLOW_WINDOW = timedelta(days=365)
# How much each sign of risk weighs in the ranking: an overflow the FSE caused in the last year
# counts most, then an open violation, an overdue pump-out, and each month since the last
# inspection (never inspected: as if it were NEVER_INSPECTED_DAYS ago).
WEIGHTS = {"overflows": 20, "violations": 10, "overdue_services": 5, "months_since": 1}
NEVER_INSPECTED_DAYS = 3 * 365
DAYS_A_MONTH = 30
STOP_FIELDS = ("code", "name", "address", "city", "compliance__schedule")


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

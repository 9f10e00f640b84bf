"""The figures of an agency's dashboard on a day: what each count over the agency says (open
violations by rule, permits to renew, inspections due, the compliance rate month by month,
the week's deadlines), from what the sweep stored.

Counted over 25,000 establishments on every visit, they made the dashboard the slowest page
(issue 41). So the sweep stores them for its day when it finishes (`figures_store`, one
DashboardFigures row an agency), and each batch of establishments a write re-evaluates counts
them again (`figures_refresh`: the same counts, once a batch; the week's deadlines of those
establishments only). A page of that day reads the row; of another day, it counts
(`figures`). Either way the numbers are those of `figures` on the data as it is."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count, Q, QuerySet

from fogkeeper.registry.models import Agency, FoodServiceEstablishment

from .models import ComplianceRate, DashboardFigures, Finding, ScheduleItem
from .rates import month_end, month_ends_before, rate_counts
from .reports import agency_calendar

INSPECTION_WEEK = timedelta(days=6)  # the field list's week ahead
CALENDAR_WEEKS = 1  # the dashboard's deadlines: this week's
RATE_MONTHS = 12  # the dashboard's chart


@dataclass
class Figures:
    as_of: date
    violations: dict[str, int]  # rule -> establishments
    permits_to_renew: int
    inspections_due: int
    inspections_this_week: int
    rates: list[tuple[date, int, int]]  # (day, open, compliant), oldest first, `as_of` last
    calendar: list[dict[str, Any]]

    @property
    def renew_by(self) -> date:
        return renew_by(self.as_of)


def renew_by(as_of: date) -> date:
    """The permits to renew are those whose renewal is due by the end of next month."""
    return month_end(month_end(as_of) + timedelta(days=1))


def figures(*, agency: Agency, as_of: date) -> Figures:
    """The dashboard's counts over the agency on `as_of`, counted now."""
    return Figures(as_of=as_of, calendar=_calendar(agency, as_of), **_counts(agency, as_of))


def _counts(agency: Agency, as_of: date) -> dict[str, Any]:
    due_now, due_this_week = inspections_due(agency=agency, as_of=as_of)
    return {
        "violations": violations_by_rule(agency=agency, on=as_of),
        "permits_to_renew": permits_to_renew(agency=agency, by=renew_by(as_of)),
        "inspections_due": due_now,
        "inspections_this_week": due_this_week,
        "rates": rates(agency=agency, as_of=as_of),
    }


def _calendar(agency: Agency, as_of: date, ids=None) -> list[dict[str, Any]]:
    return agency_calendar(agency=agency, as_of=as_of, weeks=CALENDAR_WEEKS, ids=ids)


def stored_figures(*, agency: Agency, as_of: date) -> Figures | None:
    """The figures the sweep stored for `as_of` (kept current since), or None: another day."""
    row = DashboardFigures.objects.filter(agency=agency, as_of=as_of).first()
    if row is None:
        return None
    return Figures(
        as_of=row.as_of,
        violations=row.violations,
        permits_to_renew=row.permits_to_renew,
        inspections_due=row.inspections_due,
        inspections_this_week=row.inspections_this_week,
        rates=[(date.fromisoformat(day), n, ok) for day, n, ok in row.rates],
        calendar=row.calendar,
    )


def figures_store(*, agency: Agency, as_of: date) -> None:
    """Count and store the figures of `as_of`, the day the agency's sweep has just stored."""
    fields = _row(figures(agency=agency, as_of=as_of))
    DashboardFigures.objects.bulk_create(
        [DashboardFigures(agency=agency, **fields)],
        update_conflicts=True,
        unique_fields=["agency"],
        update_fields=[*fields, "counted_at"],
    )


def figures_refresh(*, agency: Agency, establishment_ids: list[int]) -> None:
    """Bring the stored figures up to date after these establishments were evaluated again:
    count the agency again, and take the week's deadlines of these establishments afresh."""
    with transaction.atomic():
        row = DashboardFigures.objects.select_for_update().filter(agency=agency).first()
        if row is None:
            return
        codes = set(
            FoodServiceEstablishment.objects.filter(pk__in=establishment_ids).values_list(
                "code", flat=True
            )
        )
        kept = [item for item in row.calendar if item["establishment"] not in codes]
        fresh = _calendar(agency, row.as_of, establishment_ids)
        calendar = sorted([*kept, *fresh], key=_calendar_order)
        found = Figures(as_of=row.as_of, calendar=calendar, **_counts(agency, row.as_of))
        for name, value in _row(found).items():
            setattr(row, name, value)
        row.save()


def _calendar_order(item: dict[str, Any]) -> tuple:
    return (item["date"], item["establishment"], item["action"], item["name"])


def _row(found: Figures) -> dict[str, Any]:
    return {
        "as_of": found.as_of,
        "violations": found.violations,
        "permits_to_renew": found.permits_to_renew,
        "inspections_due": found.inspections_due,
        "inspections_this_week": found.inspections_this_week,
        "rates": [[day.isoformat(), n, ok] for day, n, ok in found.rates],
        "calendar": found.calendar,
    }


# -- the counts ------------------------------------------------------------------------------


def violations_by_rule(*, agency: Agency, on: date) -> dict[str, int]:
    """How many establishments had a violation of each rule open on `on`, as the stored
    findings say (open that day: found since then, and not closed by then; rates.py)."""
    open_on = Q(since__lte=on) & (Q(closed_on__isnull=True) | Q(closed_on__gt=on))
    return dict(
        Finding.objects.filter(open_on, agency=agency, severity="violation")
        .order_by()
        .values_list("rule")
        .annotate(n=Count("establishment_id", distinct=True))
    )


def permits_to_renew(*, agency: Agency, by: date) -> int:
    """Establishments whose permit renewal application is due by `by` (the stored schedule)."""
    return ScheduleItem.objects.filter(
        agency=agency, obligation="permit.renewal_application", due__lte=by
    ).aggregate(n=Count("establishment_id", distinct=True))["n"]


def inspections_due_by(agency: Agency, as_of: date) -> QuerySet:
    """The agency's open establishments with an inspection due by the end of the week ahead
    (the earliest inspection of the schedule, stored by the sweep): the field list's."""
    return FoodServiceEstablishment.objects.filter(
        agency=agency,
        closed_on__isnull=True,
        compliance__next_inspection_due__lte=as_of + INSPECTION_WEEK,
    )


def inspections_due(*, agency: Agency, as_of: date) -> tuple[int, int]:
    """(due on `as_of` or overdue, due in the six days after): the field list's two sections
    and the dashboard's figures, counted in one query."""
    today = Q(compliance__next_inspection_due__lte=as_of)
    counts = inspections_due_by(agency, as_of).aggregate(
        today=Count("pk", filter=today), week=Count("pk", filter=~today)
    )
    return counts["today"], counts["week"]


def rates(*, agency: Agency, as_of: date, months: int = RATE_MONTHS) -> list[tuple[date, int, int]]:
    """(day, open establishments, those without an open violation) on each of the last
    `months` month ends, the last one `as_of`, oldest first. The month ends come from the
    rates the agency's sweep stored; `as_of` and any month end no sweep has stored are
    counted (rates.py)."""
    days = [as_of, *month_ends_before(as_of, months - 1)]
    stored = {
        day: (active, compliant)
        for day, active, compliant in ComplianceRate.objects.filter(
            agency=agency, date__in=days[1:]
        ).values_list("date", "active", "compliant")
    }
    stored |= rate_counts(agency=agency, days=[d for d in days if d not in stored])
    return [(day, *stored[day]) for day in reversed(days)]


def compliance_rate(*, agency: Agency, as_of: date, months: int = RATE_MONTHS) -> list[dict]:
    """The chart's points: each month end's rate in per cent (None: no open establishment)."""
    return rate_points(rates(agency=agency, as_of=as_of, months=months))


def rate_points(counted: list[tuple[date, int, int]]) -> list[dict[str, Any]]:
    return [
        {
            "date": day,
            "rate": round(100 * compliant / active, 1) if active else None,
            "active": active,
        }
        for day, active, compliant in counted
    ]

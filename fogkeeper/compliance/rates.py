"""The compliance rate of an agency on a day: the share of its open establishments without a
violation open that day, from the stored findings.

An establishment is open on a day from its `opened_on` until the day before its
`closed_on`; a violation is open on a day from its `since` until the day before its
`closed_on`. Counting any number of days takes two queries. The agency's sweep stores the
rates of the last twelve month ends (`rates_store`), so that the dashboard's chart needs to
count only the day it shows and the month ends no sweep has reached yet.
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta

from django.db.models import Count, Q

from fogkeeper.registry.models import Agency, FoodServiceEstablishment

from .models import ComplianceRate, Finding

MONTHS = 12


def month_end(day: date) -> date:
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def month_ends_before(day: date, months: int) -> list[date]:
    """The last day of each of the `months` months before `day`'s, latest first."""
    out = []
    for _ in range(months):
        day = day.replace(day=1) - timedelta(days=1)
        out.append(day)
    return out


def rate_counts(*, agency: Agency, days: list[date]) -> dict[date, tuple[int, int]]:
    """(open establishments, those of them without an open violation) on each of `days`."""
    if not days:
        return {}

    def open_on(day: date) -> Q:
        return Q(opened_on__lte=day) & (Q(closed_on__isnull=True) | Q(closed_on__gt=day))

    establishments = FoodServiceEstablishment.objects.filter(agency=agency)

    def violating_on(day: date) -> Q:
        # the agency's findings carry its id; those of establishments closed (or not open
        # yet) that day are left out by the few such establishments' ids
        not_open = establishments.exclude(open_on(day)).values("pk")
        return (
            Q(since__lte=day)
            & (Q(closed_on__isnull=True) | Q(closed_on__gt=day))
            & ~Q(establishment__in=not_open)
        )

    keys = {f"d{i}": day for i, day in enumerate(days)}
    active = establishments.aggregate(
        **{k: Count("pk", filter=open_on(day)) for k, day in keys.items()}
    )
    violating = (
        Finding.objects.filter(agency=agency, severity="violation")
        .filter(since__lte=max(days))
        .filter(Q(closed_on__isnull=True) | Q(closed_on__gt=min(days)))
        .aggregate(
            **{
                k: Count("establishment_id", distinct=True, filter=violating_on(day))
                for k, day in keys.items()
            }
        )
    )
    return {day: (active[k], active[k] - violating[k]) for k, day in keys.items()}


def rates_store(*, agency: Agency, as_of: date) -> None:
    """Store the rates of the last MONTHS month ends up to `as_of` (`as_of` itself when it
    ends a month), as the findings now say, and forget any after `as_of`: the findings
    stored now are those of `as_of`, a later day's rate was counted from others. Writes
    only what changed."""
    days = month_ends_before(as_of + timedelta(days=1), MONTHS)
    counts = rate_counts(agency=agency, days=days)
    stored = {
        day: (pk, (active, compliant))
        for pk, day, active, compliant in ComplianceRate.objects.filter(agency=agency)
        .filter(Q(date__in=days) | Q(date__gt=as_of))
        .values_list("pk", "date", "active", "compliant")
    }
    later = [pk for day, (pk, _) in stored.items() if day > as_of]
    if later:
        ComplianceRate.objects.filter(pk__in=later).delete()
    changed = [
        ComplianceRate(agency=agency, date=day, active=active, compliant=compliant)
        for day, (active, compliant) in counts.items()
        if day not in stored or stored[day][1] != (active, compliant)
    ]
    if changed:
        ComplianceRate.objects.bulk_create(
            changed,
            update_conflicts=True,
            unique_fields=["agency", "date"],
            update_fields=["active", "compliant"],
        )

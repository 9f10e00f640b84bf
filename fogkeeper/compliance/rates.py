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

from django.db import connection
from django.db.models import Q

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
    """(open establishments, those of them without an open violation) on each of `days`.
    One statement of SQL of its own, the days as rows and each day's two counts as
    subqueries of it: the ORM's filtered counts, one per day, took longer to compose than
    PostgreSQL took to answer them."""
    if not days:
        return {}
    wanted = sorted(set(days))
    rows = ", ".join(["(%s)"] * len(wanted))
    fse, finding = FoodServiceEstablishment._meta.db_table, Finding._meta.db_table
    open_on = "{t}.opened_on <= days.day AND ({t}.closed_on IS NULL OR {t}.closed_on > days.day)"
    active = f"SELECT COUNT(e.id) FROM {fse} e WHERE e.agency_id = %s AND {open_on.format(t='e')}"
    violating = (
        f"SELECT COUNT(DISTINCT f.establishment_id) FROM {finding} f"
        f" JOIN {fse} e ON e.id = f.establishment_id"
        " WHERE f.agency_id = %s AND f.severity = 'violation' AND f.since <= days.day"
        f" AND (f.closed_on IS NULL OR f.closed_on > days.day) AND {open_on.format(t='e')}"
    )
    sql = f"WITH days(day) AS (VALUES {rows}) SELECT days.day, ({active}), ({violating}) FROM days"
    with connection.cursor() as cursor:
        cursor.execute(sql, [*wanted, agency.pk, agency.pk])
        counts = {_as_date(day): (n, n - bad) for day, n, bad in cursor.fetchall()}
    return {day: counts[day] for day in days}


def _as_date(value: date | str) -> date:
    """A day as the database gives it back (SQLite: as the text it was sent as)."""
    return value if isinstance(value, date) else date.fromisoformat(value)


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

"""Reads of the field pages: the establishments with an inspection due, counted for the
field list's two sections and the dashboard's figures."""

from __future__ import annotations

from datetime import date, timedelta

from django.db.models import Count, Q

from fogkeeper.registry.models import Agency, FoodServiceEstablishment

INSPECTION_WEEK = timedelta(days=6)  # the field list's week ahead


def inspections_due_by(agency: Agency, as_of: date):
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

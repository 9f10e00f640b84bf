"""The day a staff page is shown as of: `?as_of=YYYY-MM-DD`, default today."""

from __future__ import annotations

from datetime import date

from django.utils import timezone


def as_of_choice(request) -> tuple[date, str]:
    """The day `?as_of=` asks for and, when it is no date at all (2026-02-30), today with
    what was wrong, for the page to say so rather than fail."""
    today = timezone.localdate()
    text = request.GET.get("as_of", "").strip()
    if not text:
        return today, ""
    try:
        return date.fromisoformat(text), ""
    except ValueError:
        return today, f"“{text}” is not a date (YYYY-MM-DD): the page shows today, {today}."


def explicit_as_of(request) -> str:
    """The `as_of` a link within the page keeps: the day asked for, when it was a date."""
    day, problem = as_of_choice(request)
    return day.isoformat() if request.GET.get("as_of") and not problem else ""


def agency_today(agency) -> date:
    """Today in the agency's time zone (its pack's calendar)."""
    return agency.today()

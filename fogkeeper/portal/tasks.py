"""The daily reminders to operators as a task of the schedule (compliance/schedule.py)."""

from __future__ import annotations

from celery import shared_task

from fogkeeper.compliance.models import DailyJob
from fogkeeper.compliance.schedule import job_done

from .reminders import send_reminders

REMINDER_DAYS = 14  # what falls due within two weeks, as `manage.py send_reminders`


@shared_task(name="fogkeeper.reminders.agency")
def send_agency_reminders(daily_id: int) -> str | None:
    """Email the agency's operators what falls due soon and what is overdue. A reminder of
    what falls due is sent once, however often this runs; one of an overdue item at most once
    a week until it is done (reminders.py)."""
    daily = DailyJob.objects.select_related("agency").filter(pk=daily_id).first()
    if daily is None or daily.done_at is not None:
        return None
    summary = send_reminders(as_of=daily.on, days=REMINDER_DAYS, agencies=[daily.agency])
    outcome = " ".join(summary.lines())
    job_done(daily_id, outcome)
    return outcome

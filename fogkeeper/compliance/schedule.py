"""What the schedule runs each day for each agency, at its hour in the agency's time zone
(the pack's): the nightly sweep (FOGKEEPER_SWEEP_HOUR) and the reminders to operators
(FOGKEEPER_REMINDER_HOUR). Celery beat calls `tick` every few minutes; each tick queues the
jobs whose hour has come and that have not been queued today (DailyJob), queues again a job
queued long ago and not done (its message lost, a broker restarted), and the batches of
stalled sweeps, and first the tasks a page could not hand to the broker (fogkeeper.queue:
kept while it could not be reached). So a lost message or a missed tick delays a job by a
tick, never by a day."""

from __future__ import annotations

from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from fogkeeper.queue import enqueue, send_unsent
from fogkeeper.registry.models import Agency

from .models import DailyJob

SWEEP, REMINDERS = "sweep", "reminders"


def tick(now: datetime | None = None) -> list[DailyJob]:
    """Queue what is due at `now`; returns the jobs queued."""
    now = now or timezone.now()
    send_unsent()
    queued = []
    for agency in Agency.objects.order_by("pk"):
        local = now.astimezone(agency.get_pack().calendar.tz)
        for job, hour in (
            (SWEEP, settings.FOGKEEPER_SWEEP_HOUR),
            (REMINDERS, settings.FOGKEEPER_REMINDER_HOUR),
        ):
            if local.hour >= hour and (daily := _due(agency, job, local.date(), now)):
                queued.append(daily)
    for daily in queued:
        _queue(daily)
    enqueue("fogkeeper.sweep.resume")
    return queued


def _due(agency: Agency, job: str, on, now: datetime) -> DailyJob | None:
    """Today's job, when it is to be queued now: never queued, or queued and not done for
    longer than a stalled sweep may wait."""
    try:
        with transaction.atomic():
            return DailyJob.objects.create(agency=agency, job=job, on=on, queued_at=now)
    except IntegrityError:
        pass
    again_before = now - timedelta(seconds=settings.FOGKEEPER_SWEEP_STALLED_AFTER)
    requeued = DailyJob.objects.filter(
        agency=agency, job=job, on=on, done_at__isnull=True, queued_at__lt=again_before
    ).update(queued_at=now)
    return DailyJob.objects.get(agency=agency, job=job, on=on) if requeued else None


def _queue(daily: DailyJob) -> None:
    task = "fogkeeper.sweep.nightly" if daily.job == SWEEP else "fogkeeper.reminders.agency"
    enqueue(task, daily.pk)


def job_done(daily_id: int, outcome: str) -> None:
    DailyJob.objects.filter(pk=daily_id, done_at__isnull=True).update(
        done_at=timezone.now(), outcome=outcome
    )


@shared_task(name="fogkeeper.schedule.tick")
def schedule_tick() -> int:
    return len(tick())

"""Which sweep the figures of a page come from (issue 15, item 14): the last COMPLETE run,
with its time, and beside it the run under way ("sweep in progress: 12 of 25 batches") or
the one that stopped before it finished, with what it got through. The findings a page
counts are stored batch by batch, so while a run is under way, or after one died, some
establishments' findings are from it and the others from the run before: the page says so
rather than showing partial counts as if they were a sweep's.

A running run with no batch stored for FOGKEEPER_SWEEP_DEAD_AFTER seconds is shown as
stopped even before the schedule's tick marks it so (compliance.runs.mark_dead): a page
only reads."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from fogkeeper.compliance.models import SweepBatch, SweepRun
from fogkeeper.compliance.runs import last_progress
from fogkeeper.registry.models import Agency


@dataclass
class SweepStanding:
    complete: SweepRun | None  # the last complete run: the figures shown are its
    running: SweepRun | None  # the run under way, newer than it
    stopped: SweepRun | None  # the newest run that stopped before it finished, newer than it
    planned: int = 0  # establishments of the stopped or running run
    reached: int = 0  # of them, those its stored batches evaluated


def sweep_standing(*, agency: Agency, now: datetime | None = None) -> SweepStanding:
    now = now or timezone.now()
    complete, latest = _last_runs(agency)
    dead_before = now - timedelta(seconds=settings.FOGKEEPER_SWEEP_DEAD_AFTER)
    last: Any = getattr(latest, "last", None)  # annotated by _last_runs
    if latest is not None and latest.status == SweepRun.RUNNING and last < dead_before:
        latest.status = SweepRun.DIED  # as the next tick will store it
    standing = SweepStanding(
        complete=complete,
        running=latest if latest is not None and latest.status == SweepRun.RUNNING else None,
        stopped=latest if latest is not None and latest.status == SweepRun.DIED else None,
    )
    if latest is not None:
        standing.planned, standing.reached = _reach(latest)
    return standing


def _last_runs(agency: Agency) -> tuple[SweepRun | None, SweepRun | None]:
    """The last complete run, and the newest other run started after it, in one query (the
    dashboard asks on every visit)."""
    runs = SweepRun.objects.filter(agency=agency)
    newest = ("-started_at", "-pk")
    complete = runs.filter(status=SweepRun.COMPLETE).order_by(*newest)
    after = Coalesce(
        Subquery(complete.values("started_at")[:1]),
        Value(datetime.min.replace(tzinfo=UTC)),
    )
    other = runs.exclude(status=SweepRun.COMPLETE).filter(started_at__gt=after).order_by(*newest)
    found = list(
        runs.filter(
            Q(pk=Subquery(complete.values("pk")[:1])) | Q(pk=Subquery(other.values("pk")[:1]))
        )
        .defer("timings")
        .annotate(last=last_progress())
    )
    return (
        next((run for run in found if run.status == SweepRun.COMPLETE), None),
        next((run for run in found if run.status != SweepRun.COMPLETE), None),
    )


def _reach(run: SweepRun) -> tuple[int, int]:
    """How many establishments the run was to evaluate, and how many its stored batches did
    (one short list of ids per batch: 25 lists for 25,000 establishments)."""
    planned = reached = 0
    for status, ids, count in run.batches.values_list(
        "status", "establishment_ids", "establishments"
    ):
        planned += len(ids)
        reached += count if status == SweepBatch.DONE else 0
    return planned, reached

"""A sweep run, spread over batches: planned (the run and one SweepBatch per batch of
establishment ids), each batch evaluated and stored on its own (by any worker, in any
order, any number of times), then finished (the month-end rates, the run's totals).

- **One sweep of an agency at a time.** A running run holds a unique index of PostgreSQL
  (`one_running_sweep_per_agency`): planning a second one while it runs is refused with
  SweepAlreadyRunning. A running run with no batch stored for FOGKEEPER_SWEEP_DEAD_AFTER
  seconds (its process killed, say) is marked as stopped unfinished (`mark_dead`, by the
  schedule's tick and by the next sweep's planning) and no longer holds it: the next sweep
  evaluates every establishment again, those the dead run did not reach among them.
- **A batch is stored once.** Its task may run twice (acknowledged late: a worker killed
  mid-batch leaves the message to another). The batch's counts are written in the same
  transaction as its findings, under a lock on the batch's row and its establishments'
  (sweep.py); a batch found done is not stored again. A worker killed before the commit
  stored nothing.
- **The run finishes once**, when its last batch is stored: locked, and skipped if it is no
  longer running.
"""

from __future__ import annotations

import os
import resource
import socket
import time
from collections.abc import Callable
from datetime import date, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.db.models.functions import Coalesce
from django.utils import timezone

from fogkeeper.registry.models import Agency, FoodServiceEstablishment

from . import rates
from .dashboard import figures_store
from .models import SweepBatch, SweepRun
from .sweep import SweepResult, counting_queries, sweep_ids, without_gc


class SweepAlreadyRunning(Exception):
    def __init__(self, run: SweepRun):
        self.run = run
        super().__init__(
            f"a sweep of {run.agency} as of {run.as_of} is already running (run {run.pk}, "
            f"{run.batches_done} of {run.batches_total} batches done); it must finish first"
        )


def plan_sweep(
    agency: Agency, *, as_of: date, batch_size: int = 1000, requested_by: str = ""
) -> SweepRun:
    """Create the run and its batches; raise SweepAlreadyRunning when one runs already."""
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    mark_dead(agency=agency)
    ids = list(
        FoodServiceEstablishment.objects.filter(agency=agency)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    chunks = [ids[start : start + batch_size] for start in range(0, len(ids), batch_size)]
    try:
        with transaction.atomic():
            run = SweepRun.objects.create(
                agency=agency,
                as_of=as_of,
                batch_size=batch_size,
                batches_total=len(chunks),
                progress_at=timezone.now(),
                requested_by=requested_by,
            )
            SweepBatch.objects.bulk_create(
                SweepBatch(run=run, number=n, establishment_ids=chunk)
                for n, chunk in enumerate(chunks, start=1)
            )
    except IntegrityError:
        running = SweepRun.objects.filter(agency=agency, status=SweepRun.RUNNING).first()
        if running is None:
            raise
        raise SweepAlreadyRunning(running) from None
    return run


def last_progress():
    """When a run last moved: its last batch stored, else its start. (Not `progress_at`,
    which `resume_stalled` moves on when it queues a stalled run's batches again.)"""
    return Coalesce(Max("batches__finished_at"), F("started_at"))


def mark_dead(now=None, agency: Agency | None = None) -> list[int]:
    """Mark as stopped unfinished the running runs (of `agency`, or of every agency) with no
    batch stored for FOGKEEPER_SWEEP_DEAD_AFTER seconds; returns their ids."""
    now = now or timezone.now()
    dead_before = now - timedelta(seconds=settings.FOGKEEPER_SWEEP_DEAD_AFTER)
    running = SweepRun.objects.filter(status=SweepRun.RUNNING)
    if agency is not None:
        running = running.filter(agency=agency)
    dead = list(
        running.annotate(last=last_progress())
        .filter(last__lt=dead_before)
        .values_list("pk", flat=True)
    )
    if dead:
        SweepRun.objects.filter(pk__in=dead, status=SweepRun.RUNNING).update(status=SweepRun.DIED)
    return dead


def run_batch(batch_id: int) -> int | None:
    """Evaluate and store one batch unless it is done (or its run no longer runs). Returns
    the run's id when this call stored its last batch: the run is then to be finished."""
    batch = SweepBatch.objects.select_related("run__agency").filter(pk=batch_id).first()
    if batch is None or batch.status == SweepBatch.DONE:
        return None
    run = batch.run
    if run.status != SweepRun.RUNNING:
        return None
    SweepBatch.objects.filter(pk=batch.pk).update(
        attempts=F("attempts") + 1, started_at=timezone.now(), worker=_worker()
    )
    result = SweepResult(run=run)
    with counting_queries(result), without_gc(), transaction.atomic():
        # a batch redone while its first attempt still runs waits for it, then finds it done
        locked = SweepBatch.objects.select_for_update().get(pk=batch.pk)
        if locked.status == SweepBatch.DONE:
            return None
        sweep_ids(run.agency, batch.establishment_ids, run.as_of, result)
        _record_batch(locked, result)
        SweepRun.objects.filter(pk=run.pk).update(
            batches_done=F("batches_done") + 1, progress_at=timezone.now()
        )
        done = SweepRun.objects.values_list("batches_done", flat=True).get(pk=run.pk)
    return run.pk if done == run.batches_total else None


def _record_batch(batch: SweepBatch, result: SweepResult) -> None:
    batch.status = SweepBatch.DONE
    batch.finished_at = timezone.now()
    batch.establishments = result.establishments
    batch.opened, batch.closed, batch.changed = result.opened, result.closed, result.changed
    batch.errors = result.errors
    batch.timings = {k: round(v, 4) for k, v in result.timings.items()}
    batch.queries = result.queries + 1  # this save
    batch.max_rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    batch.save()


def _worker() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def resume_stalled(now=None) -> list[SweepRun]:
    """The running runs with no batch finished for FOGKEEPER_SWEEP_STALLED_AFTER seconds (their
    messages lost with a broker, their workers gone) and not yet dead: returned, their clock
    restarted, for their unfinished batches to be queued again."""
    now = now or timezone.now()
    mark_dead(now)  # a dead run is not resumed: the next sweep does its work
    stalled_before = now - timedelta(seconds=settings.FOGKEEPER_SWEEP_STALLED_AFTER)
    runs = list(SweepRun.objects.filter(status=SweepRun.RUNNING, progress_at__lt=stalled_before))
    SweepRun.objects.filter(pk__in=[r.pk for r in runs]).update(progress_at=now)
    return runs


def finish_sweep(run_id: int) -> SweepRun | None:
    """Store the month-end rates, the dashboard's figures and the run's totals, once, when
    every batch is done."""
    with transaction.atomic():
        run = SweepRun.objects.select_for_update().select_related("agency").get(pk=run_id)
        if run.status != SweepRun.RUNNING:
            return None
        batches = list(run.batches.all())
        if any(b.status != SweepBatch.DONE for b in batches):
            return None
        started = time.perf_counter()
        counted = SweepResult(run=run)
        with counting_queries(counted):
            rates.rates_store(agency=run.agency, as_of=run.as_of)
            figures_store(agency=run.agency, as_of=run.as_of)
        run.finished_at = timezone.now()
        run.status = SweepRun.COMPLETE
        _total(run, batches, rates_seconds=time.perf_counter() - started)
        run.queries += counted.queries + 3  # the run and its batches read, the run saved
        run.save()
    return run


def _total(run: SweepRun, batches: list[SweepBatch], *, rates_seconds: float) -> None:
    run.establishments = sum(b.establishments for b in batches)
    run.opened = sum(b.opened for b in batches)
    run.closed = sum(b.closed for b in batches)
    run.changed = sum(b.changed for b in batches)
    run.errors = [e for b in batches for e in b.errors]
    timings = {"load": 0.0, "evaluate": 0.0, "store": rates_seconds}
    for b in batches:
        for k, v in b.timings.items():
            timings[k] = timings.get(k, 0.0) + v
    run.timings = {k: round(v, 3) for k, v in timings.items()}
    run.queries = sum(b.queries for b in batches)


Progress = Callable[[int, int], None]


def sweep_inline(run: SweepRun, progress: Progress | None = None) -> SweepRun:
    """Run every batch of `run` here, one after the other, then finish it."""
    total = sum(len(ids) for ids in run.batches.values_list("establishment_ids", flat=True))
    done = 0
    for batch_id, ids in run.batches.values_list("pk", "establishment_ids"):
        run_batch(batch_id)
        done += len(ids)
        if progress is not None:
            progress(done, total)
    return finish_sweep(run.pk) or SweepRun.objects.get(pk=run.pk)


def sweep_agency(
    agency: Agency,
    *,
    as_of: date,
    batch_size: int = 1000,
    progress: Progress | None = None,
    requested_by: str = "",
) -> SweepResult:
    """Evaluate every establishment of `agency` on `as_of` and store what changed, here and
    now, batch after batch (sweep.py; the workers run the same batches as tasks, tasks.py).

    `progress(done, total)` is called after each batch."""
    run = sweep_inline(
        plan_sweep(agency, as_of=as_of, batch_size=batch_size, requested_by=requested_by),
        progress,
    )
    return SweepResult(
        run=run,
        establishments=run.establishments,
        opened=run.opened,
        closed=run.closed,
        changed=run.changed,
        errors=run.errors,
        timings=run.timings,
        queries=run.queries,
    )

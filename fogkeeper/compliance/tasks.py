"""The sweep and re-evaluation as Celery tasks (runs.py says why each is safe to run twice).
Without a broker they run inline (settings.CELERY_TASK_ALWAYS_EAGER)."""

from __future__ import annotations

from datetime import date

from celery import shared_task

from fogkeeper.queue import enqueue
from fogkeeper.registry.models import Agency

from .from_findings import run_bulk_notice
from .models import SweepBatch, SweepRun
from .resweep import reevaluate
from .runs import SweepAlreadyRunning, finish_sweep, plan_sweep, resume_stalled, run_batch

FIRST = 0  # the priority Redis serves first (settings.CELERY_TASK_DEFAULT_PRIORITY)


def start_sweep(
    agency: Agency, *, as_of: date, batch_size: int = 1000, requested_by: str = ""
) -> SweepRun:
    """Plan a sweep and queue its batches, one task each, for any worker. Raises
    SweepAlreadyRunning when the agency's sweep runs already."""
    run = plan_sweep(agency, as_of=as_of, batch_size=batch_size, requested_by=requested_by)
    queue_batches(run)
    run.refresh_from_db()
    return run


def queue_batches(run: SweepRun) -> None:
    """Queue the run's unfinished batches (all of them, for a new run); a run whose batches
    are all done is queued to be finished."""
    pending = list(
        run.batches.exclude(status=SweepBatch.DONE).values_list("pk", flat=True).order_by("pk")
    )
    for batch_id in pending:
        if not enqueue("fogkeeper.sweep.batch", batch_id, record=run):
            return  # the broker is away: the tick's resume of stalled sweeps queues the rest
    if not pending:
        enqueue("fogkeeper.sweep.finish", run.pk, priority=FIRST, record=run)


@shared_task(name="fogkeeper.sweep.batch")
def sweep_batch(batch_id: int) -> None:
    run_id = run_batch(batch_id)
    if run_id is not None:
        sweep_finish.apply_async(args=(run_id,), priority=FIRST)


@shared_task(name="fogkeeper.sweep.finish")
def sweep_finish(run_id: int) -> None:
    finish_sweep(run_id)


@shared_task(name="fogkeeper.sweep.start")
def sweep_start(agency_id: int, as_of: str, requested_by: str = "the nightly schedule") -> int:
    """The nightly sweep of one agency: tonight's permit modifications first, then the
    sweep. Returns the run's id (that of the running one when one runs already)."""
    from fogkeeper.permits.services import permit_modifications_apply

    agency = Agency.objects.get(pk=agency_id)
    day = date.fromisoformat(as_of)
    permit_modifications_apply(on=day, agency=agency)
    try:
        return start_sweep(agency, as_of=day, requested_by=requested_by).pk
    except SweepAlreadyRunning as e:
        return e.run.pk


@shared_task(name="fogkeeper.sweep.resume")
def sweep_resume() -> list[int]:
    """Queue again the unfinished batches of the sweeps that have stalled."""
    runs = resume_stalled()
    for run in runs:
        queue_batches(run)
    return [r.pk for r in runs]


@shared_task(name="fogkeeper.compliance.reevaluate")
def reevaluate_batch(agency_id: int, establishment_ids: list[int], as_of: str) -> int:
    """Evaluate these establishments of the agency again and store what changed
    (resweep.reevaluate, on a worker), on `as_of` (ISO; empty for the agency's today)."""
    return reevaluate(agency_id, establishment_ids, date.fromisoformat(as_of) if as_of else None)


@shared_task(name="fogkeeper.sweep.nightly")
def nightly_sweep(daily_id: int) -> int | None:
    """The schedule's sweep of an agency (schedule.py), for its local date. Done once its
    run is planned and queued; a stalled run is resumed by `sweep_resume`."""
    from .models import DailyJob
    from .schedule import job_done

    daily = DailyJob.objects.filter(pk=daily_id, done_at__isnull=True).first()
    if daily is None:
        return None
    run_id = sweep_start(daily.agency_id, daily.on.isoformat())
    job_done(daily_id, f"sweep run {run_id}")
    return run_id


# named as it was when it lived in enforcement, so that runs queued before still find it
@shared_task(name="fogkeeper.enforcement.bulk_notice")
def bulk_notice(run_id: int) -> None:
    """A bulk notice run (from_findings.py): it skips the establishments already sent or
    refused, so the task is safe to run twice."""
    run_bulk_notice(run_id)

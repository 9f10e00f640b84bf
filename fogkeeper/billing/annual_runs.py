"""The annual fees as a run of their own (AnnualFeeRun): started from the annual-fees page,
invoiced by a worker (billing/tasks.py; inline when no broker is set), its progress stored
as it goes so that the page can follow it.

- **One run of an agency at a time**: an unfinished run holds a unique index of PostgreSQL
  (`one_annual_fee_run_at_a_time`); starting another is refused with AnnualFeesUnderway.
  A run with no progress for FOGKEEPER_SWEEP_DEAD_AFTER seconds is marked stopped
  unfinished and no longer holds it.
- **Safe to run twice**: the task is acknowledged late, so a worker killed mid-run leaves it
  to another, and every establishment is looked at again. One invoiced by the earlier attempt
  is found invoiced and stays counted as issued by this run (annual.py skips it).
- **Queued again** from its page when it has made no progress for
  FOGKEEPER_SWEEP_STALLED_AFTER seconds (its message lost, say).
"""

from __future__ import annotations

import logging
from datetime import date, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from fogkeeper.queue import enqueue
from fogkeeper.reevaluation import held
from fogkeeper.registry.models import Agency

from .annual import (
    ALREADY,
    REFUSED,
    active_establishments,
    fee_for_year,
    invoice_one,
    reevaluate_invoiced,
)
from .models import AnnualFeeRun

log = logging.getLogger(__name__)
PROGRESS_EVERY = 25  # establishments between two writes of a run's progress


class AnnualFeesUnderway(Exception):
    def __init__(self, run: AnnualFeeRun | None):
        super().__init__("An annual fee run of the agency is under way.")
        self.run = run


def start_annual_fees(*, agency: Agency, year: int, on: date, user=None) -> AnnualFeeRun:
    """Record the run and queue it (run at once when no broker is set). NoAnnualFee when the
    agency charges no such fee on `on`, AnnualFeesUnderway when a run is unfinished."""
    fee = fee_for_year(agency, year, on)
    _let_go_of_dead_runs(agency)
    total = active_establishments(agency, on).count()
    try:
        with transaction.atomic():
            run = AnnualFeeRun.objects.create(
                agency=agency,
                year=year,
                noticed_on=on,
                fee_code=fee.code,
                requested_by=user,
                total=total,
            )
    except IntegrityError:
        raise AnnualFeesUnderway(underway(agency)) from None
    queue(run)
    return run


def queue(run: AnnualFeeRun) -> None:
    """Hand the committed run to a worker (here and now when no broker is set)."""
    enqueue("fogkeeper.billing.annual_fee_run", run.pk, record=run)


def underway(agency: Agency) -> AnnualFeeRun | None:
    return AnnualFeeRun.objects.filter(agency=agency, status__in=AnnualFeeRun.UNDERWAY).first()


def _let_go_of_dead_runs(agency: Agency) -> None:
    dead_before = timezone.now() - timedelta(seconds=settings.FOGKEEPER_SWEEP_DEAD_AFTER)
    for run in AnnualFeeRun.objects.filter(agency=agency, status__in=AnnualFeeRun.UNDERWAY):
        if (run.progress_at or run.created_at) < dead_before:
            run.finish(AnnualFeeRun.FAILED, error=f"No progress since {run.progress_at}.")


def run_annual_fees(run_id: int) -> AnnualFeeRun | None:
    """Invoice the run's establishments, storing its progress every PROGRESS_EVERY of them;
    a run no longer under way is left as it is."""
    with transaction.atomic():
        run = AnnualFeeRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None or not run.underway:
            return run
        run.begin()
        run.save(update_fields=["status", "started_at", "progress_at"])
    try:
        _invoice_all(run)
    except Exception as e:  # recorded on the run for its page; the invoices issued stay issued
        log.exception("annual fee run %s failed", run.pk)
        run.finish(AnnualFeeRun.FAILED, error=f"It stopped on an error: {e}")
    else:
        run.finish(AnnualFeeRun.COMPLETE)
    return run


def _invoice_all(run: AnnualFeeRun) -> None:
    fee = fee_for_year(run.agency, run.year, run.noticed_on)
    earlier = set(run.issued)  # by an earlier attempt of this run
    run.done, run.already, run.refused = 0, [], []
    actor = run.requested_by
    for fse in active_establishments(run.agency, run.noticed_on).select_related("agency"):
        with held():  # those invoiced are evaluated again together, at the end
            outcome, reason = invoice_one(fse, fee, run.year, run.noticed_on, actor)
        if outcome == REFUSED:
            run.refused.append([fse.code, reason])
        elif outcome == ALREADY and fse.code in earlier:
            pass  # issued by this run before it was interrupted
        else:
            getattr(run, outcome).append(fse.code)
        run.done += 1
        if run.done % PROGRESS_EVERY == 0:
            _save_progress(run)
    run.total = run.done
    reevaluate_invoiced(run.agency, run.issued)


def _save_progress(run: AnnualFeeRun) -> None:
    run.progress_at = timezone.now()
    run.save(update_fields=["done", "issued", "already", "refused", "progress_at"])

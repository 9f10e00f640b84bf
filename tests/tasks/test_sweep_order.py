"""On a queue shared by many agencies, each sweep completes as soon as its own batches are
stored: its finishing task (the month-end rates) is served before the batches of the sweeps
queued after it (settings.CELERY_TASK_DEFAULT_PRIORITY), with a real worker and Redis. The
test's client sends the batches as the project does (its own runs tasks inline here)."""

from __future__ import annotations

from datetime import date

import pytest

from fogkeeper.compliance.generate import generate_program
from fogkeeper.compliance.models import SweepBatch, SweepRun
from fogkeeper.compliance.runs import plan_sweep
from fogkeeper.config.celery import app as project
from fogkeeper.registry.models import Agency

from .workers import client, flush_broker, require_redis, start_worker, wait_for

# one Redis for the whole run, flushed and restarted by these tests: one of them at a time
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("redis"),
    pytest.mark.usefixtures("redis_alone"),
]
AS_OF = date(2025, 6, 30)


def test_a_sweep_completes_before_the_batches_of_sweeps_queued_after_it(tmp_path):
    require_redis()
    flush_broker()
    runs = []
    for code in ("first", "second"):
        generate_program(
            establishments=20, years=2, as_of=AS_OF, agency_code=code, pack="san-clemente", seed=5
        )
        runs.append(plan_sweep(Agency.objects.get(code=code), as_of=AS_OF, batch_size=10))
    app = client()
    for run in runs:  # all queued before any is taken, as the nightly schedule does
        for batch_id in run.batches.order_by("number").values_list("pk", flat=True):
            app.send_task(
                "fogkeeper.sweep.batch",
                args=[batch_id],
                priority=project.conf.task_default_priority,  # as queue_batches sends them
            )
    worker = start_worker("only", tmp_path)
    try:
        wait_for(
            lambda: SweepRun.objects.filter(status=SweepRun.COMPLETE).count() == 2,
            what="both sweeps to complete",
            workers=[worker],
        )
    finally:
        worker.stop()

    first, second = (SweepRun.objects.get(pk=r.pk) for r in runs)
    second_batches = SweepBatch.objects.filter(run=second).order_by("finished_at")
    assert first.finished_at < second_batches.first().finished_at
    assert second.finished_at > second_batches.last().finished_at

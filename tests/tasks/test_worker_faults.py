"""The sweep on real workers and a real Redis, under faults: a worker killed mid-batch, two
sweeps of one agency at once, a broker restarted, messages lost."""

from __future__ import annotations

import threading
from datetime import date, timedelta

import psycopg
import pytest
from django.db import IntegrityError, connection, transaction
from django.test import override_settings
from django.utils import timezone

from bench.workers import Worker
from fogkeeper.compliance.generate import generate_program
from fogkeeper.compliance.models import (
    ComplianceRate,
    ComplianceStatus,
    Finding,
    ScheduleItem,
    SweepBatch,
    SweepRun,
)
from fogkeeper.compliance.runs import SweepAlreadyRunning, plan_sweep, sweep_agency
from fogkeeper.compliance.tasks import sweep_resume
from fogkeeper.registry.models import Agency

from .workers import client, flush_broker, require_redis, restart_broker, start_worker, wait_for

# one Redis for the whole run, flushed and restarted by these tests: one of them at a time
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("redis"),
    pytest.mark.usefixtures("redis_alone"),
]
AS_OF = date(2025, 6, 30)
BATCH = 10


@pytest.fixture
def agency() -> Agency:
    require_redis()
    flush_broker()
    generate_program(
        establishments=40, years=2, as_of=AS_OF, agency_code="faults", pack="san-clemente", seed=7
    )
    return Agency.objects.get(code="faults")


@pytest.fixture
def workers(tmp_path):
    started: list[Worker] = []

    def start(name: str) -> Worker:
        worker = start_worker(name, tmp_path)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


def findings(agency: Agency) -> list[tuple]:
    return sorted(
        Finding.objects.filter(agency=agency).values_list(
            "establishment_id",
            "rule",
            "subject",
            "since",
            "open",
            "severity",
            "due",
            "closed_on",
            "message",
            "first_seen_on",
            "last_seen_on",
        )
    )


def statuses(agency: Agency) -> list[tuple]:
    return sorted(
        ComplianceStatus.objects.filter(establishment__agency=agency).values_list(
            "establishment_id", "status", "open_violations", "next_due"
        )
    )


def uninterrupted(agency: Agency) -> tuple[list, list, dict]:
    """The sweep run here, start to end; then forgotten, for the workers to do it again."""
    run = sweep_agency(agency, as_of=AS_OF, batch_size=BATCH).run
    expected = findings(agency), statuses(agency), counts(run)
    for model in (Finding, ScheduleItem, ComplianceRate):
        model.objects.filter(agency=agency).delete()
    ComplianceStatus.objects.filter(establishment__agency=agency).delete()
    SweepRun.objects.filter(agency=agency).delete()
    return expected


def counts(run: SweepRun) -> dict:
    return {
        "establishments": run.establishments,
        "opened": run.opened,
        "closed": run.closed,
        "changed": run.changed,
        "errors": run.errors,
    }


def send_batches(run: SweepRun) -> None:
    app = client()
    for batch_id in run.batches.order_by("number").values_list("pk", flat=True):
        app.send_task("fogkeeper.sweep.batch", args=[batch_id])


def complete(run: SweepRun) -> SweepRun | None:
    run.refresh_from_db()
    return run if run.status == SweepRun.COMPLETE else None


def test_a_worker_killed_mid_batch_leaves_nothing_half_stored_and_another_redoes_it(
    agency, workers
):
    expected_findings, expected_statuses, expected_counts = uninterrupted(agency)
    assert expected_findings  # the program has findings to store

    run = plan_sweep(agency, as_of=AS_OF, batch_size=BATCH)
    # Hold batch 1's establishments, as a re-evaluation of them does: the first worker's
    # batch 1 is begun, then waits for them (sweep.py locks them) — that is where it is killed.
    batch = run.batches.get(number=1)
    s = connection.settings_dict
    # closed whatever happens, or the test's teardown (TRUNCATE) would wait for it forever
    with psycopg.connect(
        host=s["HOST"], port=s["PORT"], user=s["USER"], dbname=s["NAME"], autocommit=False
    ) as holder:
        holder.execute(
            "SELECT id FROM registry_foodserviceestablishment WHERE id = ANY(%s) FOR NO KEY UPDATE",
            [batch.establishment_ids],
        )
        first = workers("first")
        send_batches(run)
        wait_for(
            lambda: SweepBatch.objects.filter(pk=batch.pk, attempts=1).exists(),
            what="the first worker to take batch 1",
            workers=[first],
        )
        first.kill()
        holder.rollback()

    assert not Finding.objects.filter(agency=agency).exists()  # nothing of batch 1 stored
    second = workers("second")
    wait_for(
        lambda: SweepRun.objects.filter(pk=run.pk, batches_done=3).exists(),
        what="the second worker to store the other batches",
        workers=[second],
    )
    # Redis hands the killed worker's message on after the visibility timeout, when kombu
    # restores it; the schedule's resume (sweep_resume, on a stalled run) queues it anyway.
    # Either way the batch is redone by the second worker, and stored once.
    app = client()
    for batch_id in run.batches.exclude(status=SweepBatch.DONE).values_list("pk", flat=True):
        app.send_task("fogkeeper.sweep.batch", args=[batch_id])
    wait_for(lambda: complete(run), what="the sweep to complete", seconds=90, workers=[second])

    batch.refresh_from_db()
    assert batch.attempts >= 2  # begun by the first worker, redone by the second
    assert run.batches_done == run.batches_total == 4
    assert findings(agency) == expected_findings
    assert statuses(agency) == expected_statuses
    assert counts(run) == expected_counts


def test_two_sweeps_of_one_agency_never_run_at_once(agency):
    outcomes: list[object] = []
    barrier = threading.Barrier(2)

    def plan():
        barrier.wait()
        try:
            outcomes.append(plan_sweep(agency, as_of=AS_OF, batch_size=BATCH))
        except SweepAlreadyRunning as e:
            outcomes.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=plan) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert sorted(type(o).__name__ for o in outcomes) == ["SweepAlreadyRunning", "SweepRun"]
    assert SweepRun.objects.filter(agency=agency, status=SweepRun.RUNNING).count() == 1
    refused = next(o for o in outcomes if isinstance(o, SweepAlreadyRunning))
    assert "already running" in str(refused)
    # the lock is PostgreSQL's: a second running run cannot be written, whoever writes it
    with pytest.raises(IntegrityError), transaction.atomic():
        SweepRun.objects.create(agency=agency, as_of=AS_OF, status=SweepRun.RUNNING)


def test_a_broker_restart_loses_no_queued_batch(agency, workers):
    expected_findings, _, _ = uninterrupted(agency)
    run = plan_sweep(agency, as_of=AS_OF, batch_size=BATCH)
    send_batches(run)  # queued while no worker runs

    restart_broker()
    worker = workers("after-restart")

    wait_for(lambda: complete(run), what="the sweep to complete", seconds=90, workers=[worker])
    assert findings(agency) == expected_findings


@override_settings(FOGKEEPER_SWEEP_STALLED_AFTER=60)
def test_a_sweep_whose_messages_were_lost_is_resumed_by_the_schedule(agency):
    expected_findings, _, _ = uninterrupted(agency)
    run = plan_sweep(agency, as_of=AS_OF, batch_size=BATCH)
    send_batches(run)
    flush_broker()  # the messages are gone (a broker lost with its disk)
    SweepRun.objects.filter(pk=run.pk).update(progress_at=timezone.now() - timedelta(minutes=5))

    resumed = sweep_resume()  # the project's tasks run inline here: the batches too

    assert resumed == [run.pk]
    assert complete(run) is not None
    assert findings(agency) == expected_findings

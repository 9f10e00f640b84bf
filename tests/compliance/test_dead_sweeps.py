"""A sweep run that stopped before it finished (its process killed mid-sweep): marked so on
the record when it has stored no batch for FOGKEEPER_SWEEP_DEAD_AFTER (issue 15, item 14),
by the schedule's tick or the next sweep, which then evaluates every establishment."""

from datetime import date

import pytest
import time_machine

from fogkeeper.compliance.models import Finding, SweepRun
from fogkeeper.compliance.runs import SweepAlreadyRunning, plan_sweep, run_batch, sweep_inline
from fogkeeper.compliance.schedule import tick
from tests.records import make_establishment
from tests.web.people import two_agencies

pytestmark = pytest.mark.django_db

DAY = date(2026, 12, 1)


@pytest.fixture
def sc():
    sc, _town = two_agencies()
    for n in range(1, 4):
        make_establishment(sc, code=f"FSE-{n}", name=f"Diner {n}", opened_on="2020-01-01")
    return sc


def killed_after_one_batch(agency) -> SweepRun:
    """A run of three batches whose process was killed after storing the first."""
    run = plan_sweep(agency, as_of=DAY, batch_size=1)
    run_batch(run.batches.order_by("number").first().pk)
    return run


def test_it_marks_a_run_with_no_batch_stored_for_dead_after_as_stopped_on_the_tick(sc):
    with time_machine.travel("2026-12-01 10:00 +00:00", tick=False):
        run = killed_after_one_batch(sc)
    with time_machine.travel("2026-12-02 09:00 +00:00", tick=False):  # 01:00 in San Clemente
        tick()
    run.refresh_from_db()
    assert (run.status, run.batches_done, run.finished_at) == (SweepRun.DIED, 1, None)


def test_a_run_stalled_for_less_than_dead_after_is_resumed_not_stopped(sc):
    with time_machine.travel("2026-12-01 04:00 +00:00", tick=False):
        run = killed_after_one_batch(sc)
    with time_machine.travel("2026-12-01 09:00 +00:00", tick=False):  # 5 h of 6; 01:00 local
        tick()  # its batches queued again (run here: no broker in the tests)
    run.refresh_from_db()
    assert (run.status, run.batches_done) == (SweepRun.COMPLETE, 3)


def test_a_long_run_still_storing_batches_holds_the_agencys_sweep(sc):
    with time_machine.travel("2026-12-01 03:00 +00:00", tick=False):
        run = plan_sweep(sc, as_of=DAY, batch_size=1)
    with time_machine.travel("2026-12-01 09:30 +00:00", tick=False):  # started 6.5 h ago
        run_batch(run.batches.order_by("number").first().pk)
    with (
        time_machine.travel("2026-12-01 10:00 +00:00", tick=False),
        pytest.raises(SweepAlreadyRunning),
    ):
        plan_sweep(sc, as_of=DAY)
    run.refresh_from_db()
    assert run.status == SweepRun.RUNNING


def test_the_next_sweep_marks_the_dead_run_and_evaluates_what_it_did_not(sc):
    with time_machine.travel("2026-12-01 10:00 +00:00", tick=False):
        dead = killed_after_one_batch(sc)
    assert Finding.objects.filter(agency=sc).values("establishment").distinct().count() <= 1
    with time_machine.travel("2026-12-02 10:00 +00:00", tick=False):
        run = sweep_inline(plan_sweep(sc, as_of=DAY))
    dead.refresh_from_db()
    assert dead.status == SweepRun.DIED
    assert (run.status, run.establishments) == (SweepRun.COMPLETE, 3)

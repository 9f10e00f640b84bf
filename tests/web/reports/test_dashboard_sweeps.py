"""Which sweep the dashboard's figures are from (issue 15, item 14): the last complete
sweep's, saying that a later one stopped or is in progress. Each test builds its own agency
and sweeps (test_dashboard.py shares one swept world among its tests)."""

from datetime import date

import pytest
import time_machine
from django.contrib.auth.models import User

from fogkeeper.compliance.models import SweepRun
from fogkeeper.compliance.runs import plan_sweep, run_batch, sweep_agency
from fogkeeper.compliance.schedule import tick
from fogkeeper.registry.models import Agency
from fogkeeper.web.reports.sweep_standing import sweep_standing
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture
def stopped_sweep(client):
    """San Clemente swept on 30 November; the sweep of 1 December killed after one batch of
    three, and no batch stored since for longer than FOGKEEPER_SWEEP_DEAD_AFTER."""
    sc, _town = two_agencies()
    for n in range(1, 4):
        make_establishment(sc, code=f"FSE-{n}", name=f"Diner {n}", opened_on="2020-01-01")
    with time_machine.travel("2026-11-30 20:00 +00:00", tick=False):
        sweep_agency(sc, as_of=date(2026, 11, 30))
    with time_machine.travel("2026-12-01 20:00 +00:00", tick=False):
        run = plan_sweep(sc, as_of=date(2026, 12, 1), batch_size=1)
        run_batch(run.batches.order_by("number").first().pk)
    with time_machine.travel("2026-12-02 09:00 +00:00", tick=False):  # 01:00 in San Clemente
        tick()
    client.force_login(make_user("mia", sc, role="manager"))
    return client


def test_it_shows_the_last_complete_sweeps_figures_and_that_a_later_one_stopped(stopped_sweep):
    assert SweepRun.objects.filter(as_of=date(2026, 12, 1)).get().status == SweepRun.DIED
    html = stopped_sweep.get("/dashboard/?as_of=2026-12-01").content.decode()
    complete = html.split('id="sweep-complete">', 1)[1].split("</p>", 1)[0]
    assert "sweep as of 2026-11-30</a>, completed 2026-11-30 12:00" in complete
    assert "3 establishments evaluated" in complete
    stopped = html.split('id="sweep-stopped">', 1)[1].split("</div>", 1)[0]
    assert "stopped before it finished: it stored 1 of 3 batches (1 of 3 establishments)" in stopped
    assert "The next sweep evaluates every establishment again." in stopped


def test_a_new_sweep_after_the_stopped_one_runs_completes_and_its_figures_are_shown(stopped_sweep):
    with time_machine.travel("2026-12-02 20:00 +00:00", tick=False):
        stopped_sweep.force_login(User.objects.get(username="mia"))  # a session of the day
        response = stopped_sweep.post("/sweeps/start/", {"as_of": "2026-12-02"})
        html = stopped_sweep.get("/dashboard/").content.decode()
    run = SweepRun.objects.get(as_of=date(2026, 12, 2))
    assert response.status_code == 302 and run.status == SweepRun.COMPLETE
    assert run.establishments == 3
    assert "sweep as of 2026-12-02</a>, completed 2026-12-02 12:00" in html
    assert 'id="sweep-stopped"' not in html


def test_it_says_a_sweep_is_in_progress_with_its_batches(client):

    sc, _town = two_agencies()
    for n in range(1, 4):
        make_establishment(sc, code=f"FSE-{n}", name=f"Diner {n}", opened_on="2020-01-01")
    run = plan_sweep(sc, as_of=date(2026, 12, 1), batch_size=1)
    run_batch(run.batches.order_by("number").first().pk)
    client.force_login(make_user("mia", sc))
    html = client.get("/dashboard/").content.decode()
    assert "Sweep in progress: 1 of 3 batches" in html
    assert "No sweep has completed yet" in html


def test_the_sweep_standing_is_read_in_one_query_and_the_stopped_runs_reach_in_another(
    stopped_sweep, django_assert_num_queries
):
    sc = Agency.objects.get(pack="san-clemente")
    with django_assert_num_queries(2):
        standing = sweep_standing(agency=sc)
    assert standing.complete.as_of == date(2026, 11, 30)
    assert standing.stopped.as_of == date(2026, 12, 1) and standing.running is None
    assert (standing.planned, standing.reached) == (3, 1)
    SweepRun.objects.filter(status=SweepRun.DIED).delete()
    with django_assert_num_queries(1):
        standing = sweep_standing(agency=sc)
    assert standing.complete.as_of == date(2026, 11, 30) and standing.stopped is None

"""The sweep runs pages (fogkeeper/web/reports/sweeps.py): the list, a run's progress batch by
batch,
and the manager's start form (the sweep runs inline here: no broker is set in the tests)."""

from datetime import date, timedelta

import pytest
import time_machine
from django.utils import timezone

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import SweepBatch, SweepRun
from fogkeeper.registry.models import Operator
from fogkeeper.web.models import Membership
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

# 03:00 on 2 December in UTC is still 1 December in San Clemente (America/Los_Angeles)
NOW = "2026-12-02 03:00 +00:00"


@pytest.fixture
def sc():
    sc, town = two_agencies()
    for n in range(1, 4):
        make_establishment(sc, code=f"FSE-{n}", name=f"Diner {n}", opened_on="2020-01-01")
    make_establishment(town, code="T-1", name="Town Diner", opened_on="2020-01-01")
    return {"sc": sc, "town": town}


def signed_in(client, agency, role="manager", username="mia"):
    client.force_login(make_user(username, agency, role=role))


def a_running_run(agency, *, done=1, total=3) -> SweepRun:
    """A run part done, as workers leave it: batch 1 stored (with a case file that failed
    validation), batch 2 begun by a worker, batch 3 queued."""
    run = SweepRun.objects.create(
        agency=agency,
        as_of=date(2026, 11, 30),
        batch_size=2,
        batches_total=total,
        batches_done=done,
        progress_at=timezone.now(),
        requested_by="the nightly schedule",
    )
    SweepBatch.objects.create(
        run=run,
        number=1,
        establishment_ids=[1, 2],
        status="done",
        attempts=1,
        worker="box-a:4242",
        establishments=2,
        opened=3,
        closed=1,
        changed=2,
        errors=[{"establishment": "FSE-2", "problems": ["devices[0].kind: unknown 'tank'"]}],
        timings={"load": 0.25, "evaluate": 0.125, "store": 0.5},
        finished_at=timezone.now(),
    )
    SweepBatch.objects.create(
        run=run, number=2, establishment_ids=[3, 4], attempts=1, worker="box-b:77"
    )
    SweepBatch.objects.create(run=run, number=3, establishment_ids=[5])
    return run


def test_it_lists_the_agencys_runs_newest_first_with_their_progress_in_words(client, sc):
    signed_in(client, sc["sc"], role="auditor")
    old = SweepRun.objects.create(
        agency=sc["sc"],
        as_of=date(2026, 10, 31),
        status="complete",
        establishments=3,
        opened=4,
        closed=2,
        changed=1,
        batches_total=1,
        batches_done=1,
        finished_at=timezone.now(),
        requested_by="mia",
    )
    SweepRun.objects.filter(pk=old.pk).update(started_at=timezone.now() - timedelta(days=30))
    a_running_run(sc["sc"])
    SweepRun.objects.create(agency=sc["town"], as_of=date(2026, 9, 1), requested_by="tess")
    html = client.get("/sweeps/").content.decode()
    assert html.index("2026-11-30") < html.index("2026-10-31")
    assert "running — 1 of 3 batches" in html and "complete" in html
    assert "the nightly schedule" in html and "mia" in html
    assert "2026-09-01" not in html and "tess" not in html  # the Town's
    assert 'id="sweep-start"' not in html  # an auditor may not start one


def test_a_run_shows_its_batches_errors_and_what_comes_next_while_it_runs(client, sc):
    signed_in(client, sc["sc"], role="inspector")
    run = a_running_run(sc["sc"])
    response = client.get(f"/sweeps/{run.pk}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert f'hx-get="/sweeps/{run.pk}/"' in html and 'hx-trigger="every 5s"' in html
    assert '<progress id="sweep-bar" max="3" value="1">' in html
    assert "1 of 3 batches stored" in html
    assert "the month-end rates are stored when the last batch is stored" in html.lower()
    assert 'id="sweep-establishments">2 of 5<' in html
    assert "3 new, 1 resolved, 2 otherwise changed" in html
    assert "box-a:4242" in html and "box-b:77" in html and "begun" in html and "queued" in html
    assert "0.25" in html and "0.13" in html and "0.50" in html
    assert 'href="/establishments/FSE-2/"' in html and "unknown &#x27;tank&#x27;" in html


def test_a_run_says_what_it_did_in_words_with_the_technical_details_folded_away(client, sc):
    """Issue 39: "Seconds loading, evaluating, storing" and "Worker vm:17389" were the page's
    words; now a sentence says what the sweep did, and the internals are in a <details>."""
    signed_in(client, sc["sc"], role="inspector")
    run = a_running_run(sc["sc"])
    SweepRun.objects.filter(pk=run.pk).update(
        status="complete",
        establishments=1204,
        opened=38,
        closed=12,
        changed=3,
        errors=[],
        finished_at=run.started_at + timedelta(seconds=125),
        queries=1,
        timings={"load": 1.5, "evaluate": 60.25, "store": 40.0},
    )
    html = client.get(f"/sweeps/{run.pk}/").content.decode()
    summary = html.split('id="sweep-summary"', 1)[1].split("</p>", 1)[0]
    assert "Checked 1,204 establishments in 2 minutes: 38 new findings, 12 resolved" in summary
    assert "Seconds loading, evaluating, storing" not in html
    folded = html.split('<details id="sweep-technical"', 1)[1].split("</details>", 1)[0]
    assert "<summary>Technical details</summary>" in folded
    assert "box-a:4242" in folded and "Worker process" in folded
    assert "60.25 s" in folded and "1 database query" in folded
    assert "box-a:4242" not in html.replace(folded, "")


def test_htmx_gets_the_progress_alone_and_a_finished_run_stops_polling(client, sc):
    signed_in(client, sc["sc"])
    run = a_running_run(sc["sc"])
    partial = client.get(f"/sweeps/{run.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert partial.startswith('<div id="sweep-progress"') and "<html" not in partial
    SweepRun.objects.filter(pk=run.pk).update(status="died")
    html = client.get(f"/sweeps/{run.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert "hx-trigger" not in html and "Stopped unfinished" in html


def test_another_agencys_run_is_not_found(client, sc):
    signed_in(client, sc["sc"])
    theirs = a_running_run(sc["town"])
    assert client.get(f"/sweeps/{theirs.pk}/").status_code == 404


@time_machine.travel(NOW, tick=False)
def test_the_manager_starts_a_sweep_as_of_today_in_the_agencys_time_zone(client, sc):
    signed_in(client, sc["sc"])
    html = client.get("/sweeps/").content.decode()
    assert 'value="2026-12-01"' in html  # not the 2nd, UTC's date
    response = client.post("/sweeps/start/", {"as_of": "2026-12-01"})
    run = SweepRun.objects.get(agency=sc["sc"])
    assert response.status_code == 302 and response.headers["Location"] == f"/sweeps/{run.pk}/"
    assert (run.status, run.as_of, run.requested_by) == ("complete", date(2026, 12, 1), "mia")
    assert run.establishments == 3
    event = AuditEvent.objects.get(action="sweep.start")
    assert (event.object_id, event.actor.username, event.agency) == (str(run.pk), "mia", sc["sc"])
    page = client.get(response.headers["Location"]).content.decode()
    assert "Complete: 3 establishments evaluated" in page and "hx-trigger" not in page


@time_machine.travel(NOW, tick=False)
@pytest.mark.parametrize(
    ("as_of", "words"),
    [
        ("2026-12-02", "after today (2026-12-01 in the agency&#x27;s time zone)"),
        ("2026-02-30", "Enter the day to sweep as of as a date"),
        ("", "Enter the day to sweep as of."),
        ("2009-08-19", "before the ordinance took effect (2009-08-20)"),
    ],
)
def test_a_day_the_sweep_cannot_be_run_as_of_is_refused_on_the_field(client, sc, as_of, words):
    signed_in(client, sc["sc"])
    rows = AuditEvent.objects.count()  # the signed-in person's membership
    response = client.post("/sweeps/start/", {"as_of": as_of})
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not SweepRun.objects.exists() and AuditEvent.objects.count() == rows


def test_a_second_sweep_while_one_runs_is_refused_with_a_link_to_the_running_one(client, sc):
    signed_in(client, sc["sc"])
    running = a_running_run(sc["sc"])
    response = client.post("/sweeps/start/", {"as_of": "2026-11-30"})
    html = response.content.decode()
    assert response.status_code == 409
    assert "already running" in html and f'href="/sweeps/{running.pk}/"' in html
    assert SweepRun.objects.filter(agency=sc["sc"]).count() == 1


@pytest.mark.parametrize("role", ["inspector", "clerk", "auditor"])
def test_only_the_manager_may_start_a_sweep(client, sc, role):
    signed_in(client, sc["sc"], role=role)
    assert client.post("/sweeps/start/", {"as_of": "2026-11-30"}).status_code == 403
    assert client.get("/sweeps/").status_code == 200
    assert not SweepRun.objects.exists()


def test_the_start_is_posted_only(client, sc):
    signed_in(client, sc["sc"])
    assert client.get("/sweeps/start/").status_code == 405


def test_an_outside_role_never_sees_the_sweeps(client, sc):
    user = make_user("olga")
    operator = Operator.objects.create(agency=sc["sc"], name="Diner Holdings")
    Membership.objects.create(user=user, agency=sc["sc"], role="operator", operator=operator)
    client.force_login(user)
    run = a_running_run(sc["sc"])
    assert client.get("/sweeps/").status_code == 404
    assert client.get(f"/sweeps/{run.pk}/").status_code == 404
    assert client.post("/sweeps/start/", {"as_of": "2026-11-30"}).status_code == 404

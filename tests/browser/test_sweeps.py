"""The manager starts a sweep from the sweep runs page (no broker in the tests: it runs inline)
and sees it complete; a running run's page follows the work and turns complete by itself."""

import re
from datetime import date

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from fogkeeper.compliance.models import SweepBatch, SweepRun
from tests.browser.test_incidents import DESKTOP, check_page, sign_in
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def town():
    _, town = two_agencies()
    make_establishment(town, code="T-1", name="Town Diner", opened_on="2024-01-01")
    make_establishment(town, code="T-2", name="Town Grill", opened_on="2024-01-01")
    make_user("mona", town, role="manager")
    return town


def test_the_manager_starts_a_sweep_and_sees_it_complete(page, live_server, screenshot, town):
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "mona")
    page.goto(f"{live_server.url}/sweeps/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sweep runs")
    expect(page.locator("#no-sweeps")).to_be_visible()
    check_page(page, screenshot, "sweeps-empty")

    page.get_by_label("As of").fill("2026-11-30")
    page.get_by_role("button", name="Start the sweep").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Sweep as of 2026-11-30")
    expect(page.locator("#sweep-state")).to_contain_text("Complete: 2 establishments evaluated")
    expect(page.locator("#sweep-batches")).to_contain_text("1 of 1")
    expect(page.locator("#sweep-summary")).to_have_text(
        re.compile(r"^Checked 2 establishments in \d+ seconds?: \d+ new findings?, 0 resolved")
    )
    expect(page.locator("#sweep-batch-table")).to_be_hidden()  # folded away, until asked for
    check_page(page, screenshot, "sweep-complete")
    page.get_by_text("Technical details").click()
    expect(page.locator("#sweep-batch-table")).to_be_visible()
    expect(page.locator("#sweep-batch-table")).to_contain_text("stored")
    expect(page.locator("#sweep-timings")).to_contain_text(
        re.compile(r"storing [\d.]+ s .*; \d+ database quer")
    )
    check_page(page, screenshot, "sweep-technical-details")

    page.get_by_role("link", name="All sweep runs").click()
    row = page.locator("#sweeps").get_by_role("row", name=re.compile("2026-11-30"))
    expect(row).to_contain_text("mona")
    expect(row).to_contain_text("complete")
    check_page(page, screenshot, "sweeps")


def test_a_running_runs_page_follows_the_work(page, live_server, screenshot, town):
    run = SweepRun.objects.create(
        agency=town,
        as_of=date(2026, 11, 30),
        batch_size=1,
        batches_total=2,
        batches_done=1,
        progress_at=timezone.now(),
        requested_by="the nightly schedule",
    )
    SweepBatch.objects.create(
        run=run,
        number=1,
        establishment_ids=[1],
        status="done",
        attempts=1,
        worker="box:1",
        establishments=1,
        timings={"load": 0.1, "evaluate": 0.1, "store": 0.1},
        finished_at=timezone.now(),
    )
    SweepBatch.objects.create(run=run, number=2, establishment_ids=[2], attempts=1, worker="box:2")
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "mona")
    page.goto(f"{live_server.url}/sweeps/{run.pk}/")
    expect(page.locator("#sweep-state")).to_contain_text("1 of 2 batches stored")
    check_page(page, screenshot, "sweep-running")

    # the last batch stored and the run finished, as a worker would: the page polls and shows it
    SweepBatch.objects.filter(run=run, number=2).update(status="done", establishments=1)
    SweepRun.objects.filter(pk=run.pk).update(
        status="complete", batches_done=2, establishments=2, finished_at=timezone.now()
    )
    expect(page.locator("#sweep-state")).to_contain_text("Complete", timeout=15_000)
    expect(page.locator("#sweep-batches")).to_contain_text("2 of 2")

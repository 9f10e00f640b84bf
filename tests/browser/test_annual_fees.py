"""The clerk invoices the year's annual fee from the annual fee invoices page (no broker in
the tests: it runs inline) and sees what it did; a stalled run is queued again from its page."""

import re
from datetime import date, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from fogkeeper.billing.models import AnnualFeeRun
from fogkeeper.billing.services import fee_schedule_set
from tests.billing.test_annual_fees import SC_FEES
from tests.browser.test_incidents import DESKTOP, check_page, sign_in
from tests.records import d, make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sc():
    sc, _ = two_agencies()
    fee_schedule_set(agency=sc, effective_on=d("2024-07-01"), items=SC_FEES)
    make_establishment(sc, code="FSE-1", name="Pier Diner", opened_on="2024-01-01")
    make_establishment(sc, code="FSE-2", name="Canyon Deli", opened_on="2024-01-01")
    make_user("cleo", sc, role="clerk")
    return sc


def test_the_clerk_invoices_the_annual_fee_and_sees_what_was_issued(
    page, live_server, screenshot, sc
):
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "cleo")
    page.goto(f"{live_server.url}/billing/fees/")
    page.get_by_role("link", name="Annual fee invoices").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Annual fee invoices")
    expect(page.locator("#annual-preview")).to_contain_text("a run today would invoice 2")
    check_page(page, screenshot, "annual-fees-empty")

    page.get_by_label("Fee year").fill("2026")
    page.get_by_label("Notice date").fill("2025-11-30")
    page.get_by_role("button", name="Invoice the annual fee").click()
    refusal = page.locator("#form-refusal")
    expect(refusal).to_contain_text("The notice date 2025-11-30 is not in 2026.")
    check_page(page, screenshot, "annual-fees-refused")

    page.get_by_label("Notice date").fill("2026-11-30")
    page.get_by_role("button", name="Invoice the annual fee").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Annual fee invoices of 2026")
    expect(page.locator("#annual-state")).to_contain_text("Complete: 2 invoices issued")
    check_page(page, screenshot, "annual-fee-run-complete")

    page.get_by_role("link", name="All annual fee runs").click()
    row = page.locator("#annual-runs").get_by_role("row", name=re.compile("2026"))
    expect(row).to_contain_text("cleo")
    expect(row).to_contain_text("Complete")
    expect(page.locator("#annual-preview")).to_contain_text("a run today would invoice 0")
    check_page(page, screenshot, "annual-fees")


def test_a_stalled_run_is_queued_again_and_carries_on(page, live_server, screenshot, sc):
    run = AnnualFeeRun.objects.create(
        agency=sc,
        year=2026,
        noticed_on=date(2026, 11, 30),
        fee_code="RGI",
        status="running",
        total=2,
        progress_at=timezone.now() - timedelta(hours=1),
    )
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "cleo")
    page.goto(f"{live_server.url}/billing/annual-fees/{run.pk}/")
    expect(page.locator("#annual-state")).to_contain_text("Running: 0 of 2 establishments done")
    expect(page.locator("#annual-stalled")).to_contain_text("Nothing has moved since")
    check_page(page, screenshot, "annual-fee-run-stalled")

    page.get_by_role("button", name="Queue it again").click()
    expect(page.locator("#annual-state")).to_contain_text("Complete: 2 invoices issued")

"""Money in a real browser: the clerk issues an invoice, records a partial payment, is refused
an overpayment on the page and credits the rest; the manager sets a new fee schedule."""

import pytest
from playwright.sync_api import expect

from fogkeeper.billing.models import FeeSchedule, Invoice
from tests.billing.records import town_fse
from tests.browser.test_accessibility import serious_violations
from tests.web.people import make_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fse():
    fse = town_fse("T-7")
    make_user("carla", fse.agency, role="clerk")
    make_user("maria", fse.agency, role="manager")
    return fse


def test_a_clerk_invoices_takes_a_part_payment_refuses_an_overpayment_and_credits_the_rest(
    page, live_server, fse, sign_in, screenshot
):
    sign_in(page, "carla")
    page.goto(f"{live_server.url}/establishments/T-7/")
    page.get_by_role("link", name="Account and invoices").click()
    page.get_by_role("link", name="Issue an invoice").click()
    page.get_by_label("Date of notice (mailed)").fill("2025-03-03")
    page.get_by_label("PERMIT: FOG Permit fee, $250.00 (10.02.360)").check()
    screenshot(page, "billing-invoice-new")
    assert serious_violations(page) == []
    page.get_by_role("button", name="Issue the invoice").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("Invoice INV-1")
    expect(page.locator("#owed")).to_have_text("$250.00 of $250.00")
    page.get_by_label("Paid on").fill("2025-03-05")
    page.get_by_label("Amount paid").fill("100.00")
    page.get_by_label("Check or receipt number").fill("1001")
    page.get_by_role("button", name="Record the payment").click()
    expect(page.locator("#owed")).to_have_text("$150.00 of $250.00")

    page.get_by_label("Paid on").fill("2025-03-06")
    page.get_by_label("Amount paid").fill("200.00")
    page.get_by_role("button", name="Record the payment").click()
    expect(page.get_by_text("$200.00 is more than the $150.00 still owed")).to_be_visible()
    screenshot(page, "billing-overpayment-refused")
    assert serious_violations(page) == []

    page.get_by_label("Credited on").fill("2025-03-10")
    page.get_by_label("Amount credited").fill("150.00")
    page.get_by_label("Why is it credited?").fill("Pro rata for a partial year")
    page.get_by_role("button", name="Credit the amount").click()
    expect(page.get_by_text("The invoice is settled: nothing is owed on it.")).to_be_visible()

    page.get_by_role("link", name="Account and invoices").click()
    expect(page.locator("#balance")).to_have_text("$0.00 owed")
    screenshot(page, "billing-account")
    assert serious_violations(page) == []
    assert Invoice.objects.get().total() == 250


def test_a_manager_sets_a_new_fee_schedule_from_a_date(page, live_server, fse, sign_in, screenshot):
    sign_in(page, "maria")
    page.goto(f"{live_server.url}/billing/fees/")
    expect(page.get_by_label("Code of fee 1")).to_have_value("CLEANUP")
    page.get_by_label("In force from", exact=True).fill("2025-07-01")
    page.get_by_label("Resolution").fill("Res. 2025-14")
    page.get_by_label("Amount of fee 2 (empty at actual cost)").fill("275.00")
    page.get_by_role("button", name="Set the fee schedule").click()

    expect(page.get_by_role("heading", name="In force from 2025-07-01")).to_be_visible()
    expect(
        page.get_by_role("heading", name="In force from 2024-07-01 to 2025-06-30")
    ).to_be_visible()
    screenshot(page, "billing-fees")
    assert serious_violations(page) == []
    schedule = FeeSchedule.objects.get(effective_on="2025-07-01")
    assert schedule.items.get(code="PERMIT").amount == 275

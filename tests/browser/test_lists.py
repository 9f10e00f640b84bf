"""The Town's auditor lists the delinquent invoices and downloads them as an Excel workbook,
then downloads the open findings as CSV: what is downloaded is what the page showed."""

import csv
import io

import pytest
from openpyxl import load_workbook
from playwright.sync_api import expect

from fogkeeper.billing.services import fee_schedule_set
from fogkeeper.compliance.resweep import sweep_establishment
from tests.billing.records import TOWN_FEES, invoice, pay
from tests.browser.test_incidents import DESKTOP, check_page
from tests.records import d, make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def town():
    """INV-1 unpaid past its payment period (delinquent at the June 1 sweep), INV-2 paid."""
    _, town = two_agencies()
    fee_schedule_set(agency=town, effective_on=d("2024-07-01"), items=TOWN_FEES)
    diner = make_establishment(town, code="T-1", name="Town Diner", opened_on="2020-01-01")
    invoice(diner, "INV-1", "2025-03-03")
    pay(invoice(diner, "INV-2", "2025-04-01"), "250.00", "2025-04-02")
    sweep_establishment(diner, as_of=d("2025-06-01"))
    make_user("audrey", town, role="auditor")
    return town


def test_an_auditor_downloads_the_delinquent_invoices_and_the_open_findings(
    page, live_server, sign_in, screenshot, town, tmp_path
):
    page.set_viewport_size(DESKTOP)
    sign_in(page, "audrey")
    page.goto(f"{live_server.url}/invoices/")
    rows = page.locator("#invoices tbody tr")
    expect(rows).to_have_count(2)
    page.get_by_label("State").select_option("delinquent")
    page.get_by_role("button", name="Filter").click()
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Delinquent since 2025-04-18")
    check_page(page, screenshot, "invoices-delinquent")

    with page.expect_download() as info:
        page.get_by_role("link", name="Download Excel").click()
    assert info.value.suggested_filename == "town-10-02-invoices.xlsx"
    info.value.save_as(tmp_path / "invoices.xlsx")
    sheet = load_workbook(tmp_path / "invoices.xlsx").active
    exported = [[c.value for c in row] for row in sheet.iter_rows()]
    assert [(r[0], r[10]) for r in exported[1:]] == [("INV-1", "Delinquent")]

    page.goto(f"{live_server.url}/findings/")
    findings = page.locator("#findings tbody tr")
    expect(findings.first).to_be_visible()
    shown = findings.count()
    check_page(page, screenshot, "findings")
    with page.expect_download() as info:
        page.get_by_role("link", name="Download CSV").click()
    assert info.value.suggested_filename == "town-10-02-findings.csv"
    info.value.save_as(tmp_path / "findings.csv")
    text = (tmp_path / "findings.csv").read_text(encoding="utf-8-sig")
    exported = list(csv.DictReader(io.StringIO(text)))
    assert len(exported) == shown
    assert "Fees delinquent" in {row["Finding"] for row in exported}
    assert {row["Establishment"] for row in exported} == {"Town Diner"}

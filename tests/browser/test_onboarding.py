"""The manager onboards the agency's establishments from its own spreadsheet (no broker in the
tests: the runs go inline): opens Onboarding from the Registry, downloads nothing but reads
which blank files there are, uploads an XLSX with a bad date, reads the problem by row and
column, uploads the corrected file, reads what would be created and imports it."""

import re

import pytest
from openpyxl import Workbook
from playwright.sync_api import expect

from tests.browser.test_incidents import DESKTOP, check_page, sign_in
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

COLUMNS = ["code", "name", "address", "opened_on", "operator_name"]


def workbook(path, *rows):
    book = Workbook()
    book.active.append(COLUMNS)
    for row in rows:
        book.active.append(row)
    book.save(path)
    return path


def test_the_manager_onboards_establishments_from_a_spreadsheet(
    page, live_server, screenshot, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    sc, _ = two_agencies()
    make_user("mia", sc, role="manager")
    grill = ["FSE-1", "Harbor Grill", "101 Pier Way", "2015-03-01", "Harbor Foods LLC"]
    taco = ["FSE-2", "Taco Stand", "5 Main St", "2015-02-30", "Ruiz Family Inc"]
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "mia")

    page.get_by_role("link", name="Registry", exact=True).click()
    page.get_by_role("link", name="Onboarding from spreadsheets").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Onboarding from spreadsheets")
    expect(page.locator("#blank-files")).to_contain_text("Grease control devices: XLSX · CSV")
    check_page(page, screenshot, "onboarding-empty")

    page.get_by_label("What the file holds").select_option("establishments")
    page.get_by_label("Spreadsheet (CSV or XLSX)").set_input_files(
        workbook(tmp_path / "program.xlsx", grill, taco)
    )
    page.get_by_role("button", name="Upload and check").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Dry run of program.xlsx")
    expect(page.locator("#onboarding-state")).to_contain_text("1 problem in 2 rows")
    problem = page.locator("#onboarding-problems").get_by_role("row", name=re.compile("^3"))
    expect(problem).to_contain_text("opened_on")
    expect(problem).to_contain_text("not a date: '2015-02-30'")
    check_page(page, screenshot, "onboarding-problems")

    page.get_by_role("link", name="All onboardings").click()
    taco[3] = "2015-02-28"
    page.get_by_label("What the file holds").select_option("establishments")
    page.get_by_label("Spreadsheet (CSV or XLSX)").set_input_files(
        workbook(tmp_path / "program-corrected.xlsx", grill, taco)
    )
    page.get_by_role("button", name="Upload and check").click()
    expect(page.locator("#onboarding-state")).to_contain_text(
        "No problem in 2 rows. If imported, 2 records would be created"
    )
    check_page(page, screenshot, "onboarding-dry-run")

    page.get_by_role("button", name="Import program-corrected.xlsx").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Import of program-corrected.xlsx")
    expect(page.locator("#onboarding-state")).to_contain_text("Imported: 2 records created")
    check_page(page, screenshot, "onboarding-imported")

    page.get_by_role("link", name="See the establishments").click()
    expect(page.get_by_role("link", name=re.compile("Taco Stand"))).to_be_visible()


def test_the_manager_sets_the_agencys_area_and_the_start_of_its_pump_out_history(
    page, live_server, screenshot
):
    """A box whose north edge lies south of its south edge is refused in words, nothing saved;
    the corrected box and a history start are saved and said back."""
    sc, _ = two_agencies()
    make_user("mia", sc, role="manager")
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "mia")
    page.goto(f"{live_server.url}/onboarding/")
    form = page.locator("#onboarding-settings")
    form.get_by_label("Area: south edge (latitude)").fill("33.50")
    form.get_by_label("Area: north edge (latitude)").fill("33.38")
    form.get_by_label("Area: west edge (longitude, negative in the US)").fill("-117.68")
    form.get_by_label("Area: east edge (longitude, negative in the US)").fill("-117.55")
    form.get_by_label("Pump-out history starts (YYYY-MM-DD)").fill("2026-12-01")
    form.get_by_label("Grace after it starts (days)").fill("60")
    form.get_by_role("button", name="Save the settings").click()
    expect(page.locator("#onboarding-settings")).to_contain_text(
        "The north edge (33.38) must be north of the south (33.50)."
    )
    check_page(page, screenshot, "onboarding-settings-refused")
    sc.refresh_from_db()
    assert sc.area_south is None and sc.history_starts is None

    form = page.locator("#onboarding-settings")
    form.get_by_label("Area: north edge (latitude)").fill("33.50")
    form.get_by_label("Area: south edge (latitude)").fill("33.38")
    form.get_by_role("button", name="Save the settings").click()
    expect(page.locator("#history-starts-now")).to_have_text(
        "Pump-out history starts 2026-12-01; a device without a record is not counted overdue "
        "until 2027-01-30."
    )
    check_page(page, screenshot, "onboarding-settings")
    sc.refresh_from_db()
    assert (float(sc.area_south), float(sc.area_north)) == (33.38, 33.5)

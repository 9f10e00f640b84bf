"""A clerk finds one hauler's pump-outs of a month and downloads them as CSV for the State:
the list filtered, the download holding exactly the rows shown, in the agency's headings."""

import csv
import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.browser.test_incidents import DESKTOP, check_page, label, sign_in
from tests.records import make_device, make_establishment, make_hauler, make_service
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def san_clemente():
    sc, town = two_agencies()
    pier = make_establishment(sc, code="SC-1", name="Pier Taqueria")
    cafe = make_establishment(sc, code="SC-2", name="Harbor Cafe", address="9 Coast Hwy")
    acme, vac = make_hauler(sc, "H-1", name="Acme Pumping"), make_hauler(sc, "H-2", name="Vac Co")
    gi, gt = make_device(pier, "GI-1"), make_device(cafe, "GT-1", kind="trap")
    make_service(gi, "M-100", "2026-03-04", hauler=acme, gallons_removed=Decimal("750.0"))
    make_service(gt, "M-101", "2026-03-18", hauler=acme, gallons_removed=Decimal("40.0"))
    make_service(gi, "M-090", "2026-02-02", hauler=acme)
    make_service(gt, "M-102", "2026-03-20", hauler=vac)
    town_fse = make_establishment(town, code="T-1", name="Town Diner")
    make_service(make_device(town_fse, "GI-1"), "M-TOWN", "2026-03-10", hauler=make_hauler(town))
    return sc


def test_a_clerk_downloads_one_haulers_pump_outs_of_a_month(
    page, live_server, screenshot, san_clemente, tmp_path
):
    make_user("clara", san_clemente, role="clerk")
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "clara")

    page.goto(f"{live_server.url}/pump-outs/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Pump-outs")
    expect(page.locator("#result-count")).to_have_text("4 pump-outs")
    page.get_by_label(label("From")).fill("2026-03-01")
    page.get_by_label(label("To")).fill("2026-03-31")
    page.get_by_label(label("Hauler")).select_option(label="Acme Pumping")
    page.get_by_role("button", name="Filter").click()

    expect(page.locator("#result-count")).to_have_text("2 pump-outs matching these filters")
    rows = page.locator("#services tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("Harbor Cafe")
    expect(page.get_by_label(label("Hauler"))).to_have_value("H-1")
    check_page(page, screenshot, "pump-outs")

    with page.expect_download() as info:
        page.get_by_role("link", name=re.compile(r"^Download CSV")).click()
    download = info.value
    assert download.suggested_filename == "san-clemente-pump-outs.csv"
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    with path.open(newline="", encoding="utf-8-sig") as f:
        exported = list(csv.DictReader(f))
    assert [
        (r["Manifest number"], r["Establishment"], r["Hauler"], r["Gallons removed"])
        for r in exported
    ] == [
        ("M-101", "Harbor Cafe", "Acme Pumping", "40.0"),
        ("M-100", "Pier Taqueria", "Acme Pumping", "750.0"),
    ]

    page.get_by_label(label("To")).fill("2026-02-01")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("#id_date_to_error")).to_contain_text("before the start")
    expect(page.get_by_label(label("Hauler"))).to_have_value("H-1")

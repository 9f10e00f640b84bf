"""A program manager in a real browser: exporting a filtered list of establishments, opening
an enforcement case and downloading its letter, and reading a device's accumulation chart."""

import csv
import hashlib
from pathlib import Path

import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import Letter
from fogkeeper.registry.models import GreaseControlDevice
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_establishment
from tests.web.enforcement import san_clemente_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def san_clemente():
    sc, _ = two_agencies()
    san_clemente_case(make_pier_taqueria(sc))
    make_establishment(sc, "FSE-0100", name="Harbor Grill", address="200 Avenida Del Mar")
    make_establishment(sc, "FSE-0200", name="Pier Pizza", address="5 Pier Walk")
    sweep_agency(sc, as_of=AS_OF)
    make_user("maria", sc, role="manager")
    return sc


@pytest.fixture
def errors(page):
    seen = []
    page.on("pageerror", lambda error: seen.append(str(error)))
    return seen


def test_a_manager_filters_the_establishments_and_exports_what_is_shown(
    page, errors, live_server, san_clemente, sign_in, tmp_path
):
    sign_in(page, "maria")
    page.goto(f"{live_server.url}/establishments/")
    rows = page.locator("#results tbody tr")
    expect(rows).to_have_count(3)
    page.get_by_label("Search name, address").fill("Pier")
    expect(rows).to_have_count(2)
    shown = [row.locator("td").first.inner_text() for row in rows.all()]

    with page.expect_download() as info:
        page.get_by_role("link", name="Download CSV").click()
    download = info.value
    path = tmp_path / download.suggested_filename
    download.save_as(path)

    assert download.suggested_filename == "san-clemente-establishments.csv"
    with Path(path).open(newline="", encoding="utf-8-sig") as f:
        exported = list(csv.DictReader(f))
    assert [row["Code"] for row in exported] == shown == ["FSE-0200", "FSE-0042"]  # by name
    assert [row["Name"] for row in exported] == ["Pier Pizza", "Pier Taqueria"]
    assert errors == []


def test_a_manager_opens_a_case_and_downloads_its_letter(
    page, errors, live_server, san_clemente, sign_in, screenshot, tmp_path
):
    sign_in(page, "maria")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Enforcement").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Enforcement cases")
    page.get_by_role("link", name="EC-7").click()
    expect(page).to_have_url(f"{live_server.url}/cases/FSE-0042/EC-7/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Case EC-7: Pier Taqueria")
    expect(page.locator("#actions > li")).to_have_count(4)
    expect(page.locator("#deadlines")).to_contain_text("13.30.080(D)(2)")
    screenshot(page, "case")

    with page.expect_download() as info:
        page.get_by_role("link", name="Letter for NNC-1 (PDF)").click()
    download = info.value
    path = tmp_path / download.suggested_filename
    download.save_as(path)

    body = path.read_bytes()
    assert download.suggested_filename == "FSE-0042-NNC-1-notice-of-noncompliance.pdf"
    assert body.startswith(b"%PDF")
    assert hashlib.sha256(body).hexdigest() == Letter.objects.get(action__code="NNC-1").sha256
    assert errors == []


def test_the_establishment_page_charts_each_devices_accumulation(
    page, errors, live_server, san_clemente, sign_in, screenshot
):
    gi = GreaseControlDevice.objects.get(establishment__code="FSE-0042", code="GI-1")
    sign_in(page, "maria")
    page.goto(f"{live_server.url}/establishments/FSE-0042/?as_of={AS_OF}")
    chart = page.locator(f"canvas#accumulation-{gi.pk}")
    expect(chart).to_be_visible()
    expect(chart).to_have_attribute("data-drawn", "true")
    expect(page.get_by_role("table", name="Accumulation readings of GI-1")).to_be_visible()
    chart.scroll_into_view_if_needed()
    screenshot(page, "establishment-chart")
    assert errors == []

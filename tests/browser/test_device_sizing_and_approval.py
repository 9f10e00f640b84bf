"""A pack's sizing formula and an approved longer interval in a real browser (issue 38, item
2): the manager of a pack that sizes interceptors by seats and hours records a device's inputs
(a negative refused in words), reads the size the formula requires beside the device's, then
records the Public Works Director's approval of a longer pump-out interval (an end before its
start refused) and finds it on the device. Each form at desktop and phone width, checked by
axe-core."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from fogkeeper.registry.models import IntervalApproval
from tests.browser.test_incidents import DESKTOP, check_page, sign_in
from tests.records import make_agency, make_device, make_establishment
from tests.web.people import make_user

pytestmark = pytest.mark.django_db(transaction=True)
PACKS = Path(__file__).resolve().parent.parent / "rules" / "format_packs"


def label(text: str):
    return re.compile(rf"^{re.escape(text)}:?$")


def test_the_manager_records_sizing_inputs_and_an_approved_interval(
    page, live_server, screenshot, monkeypatch
):
    monkeypatch.setenv("FOGKEEPER_PACKS", str(PACKS))
    agency = make_agency("reach-town")
    fse = make_establishment(agency, code="FSE-7", name="Reach Diner", opened_on="2024-02-01")
    device = make_device(fse, installed_on="2024-03-01", capacity_gallons=1000, compartments=2)
    make_user("mia", agency, role="manager")
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "mia")

    page.goto(f"{live_server.url}/establishments/FSE-7/devices/{device.pk}/")
    expect(page.locator("#sizing")).to_contain_text("not known until every input is recorded")
    page.get_by_role("link", name="Sizing inputs").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Sizing inputs of GI-1")
    page.get_by_label(label("Seats in the dining area")).fill("-5")
    page.get_by_label(label("Hours open a day")).fill("8")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("greater than or equal to 0")).to_be_visible()
    check_page(page, screenshot, "registry-device-sizing-refused")
    page.get_by_label(label("Seats in the dining area")).fill("50")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#sizing")).to_contain_text("1700.0: this device is smaller")

    page.get_by_role("link", name="Approve a longer interval").click()
    page.get_by_label(label("Interval approved (days)")).fill("120")
    page.get_by_label(label("Approved by")).fill("Dana Ruiz, Public Works Director")
    page.get_by_label(label("Approved on")).fill("2025-03-02")
    page.get_by_label(label("Letter or resolution number")).fill("Letter PW-2025-08")
    page.get_by_label(label("Ends on")).fill("2025-03-01")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text(re.compile("cannot end on 2025-03-01"))).to_be_visible()
    check_page(page, screenshot, "registry-device-interval-approval-refused")
    assert not IntervalApproval.objects.exists()
    page.get_by_label(label("Ends on")).fill("2025-08-31")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#approvals")).to_have_text(
        "Every 120 days, approved by Dana Ruiz, Public Works Director on 2025-03-02 "
        "(Letter PW-2025-08), until 2025-08-31."
    )
    check_page(page, screenshot, "registry-device-sized-and-approved")
    assert IntervalApproval.objects.get(device=device).days == 120

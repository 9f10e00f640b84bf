"""On a phone (390 px wide) and with the keyboard: a portal's table reads as cards with every
column on screen, a checkbox is a 44-px tap target, the agency bar keeps off the screen's
edge; a person of several agencies signs in to the one they chose last, and switching agency
on a record's page lands on that area's list, not on a 404."""

import pytest
import time_machine
from playwright.sync_api import expect

from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

from .conftest import NOON, PHONE, sign_out

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def bob():
    """An inspector of San Clemente and of the Town, with one establishment in each."""
    sc, town = two_agencies()
    make_establishment(sc, code="SC-0012", name="Pier Diner")
    make_establishment(town, code="T-1", name="Town Diner")
    make_user("bob", sc, town)


def _inside(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def test_the_operators_table_is_cards_with_every_column_on_a_phone(
    page, live_server, olive, sign_in, screenshot
):
    with time_machine.travel(NOON):
        page.set_viewport_size(PHONE)
        sign_in(page, "olive")
        row = page.locator("#establishments tbody tr").first
        violations, next_due = row.locator("> *").nth(3), row.locator("> *").nth(4)
        expect(violations).to_have_attribute("data-label", "Open violations")
        expect(next_due).to_have_attribute("data-label", "Next due")
        assert _inside(page, violations) and _inside(page, next_due)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, "phone-operator-establishments")
        page.set_viewport_size(DESKTOP)
        expect(page.locator("#establishments thead")).to_be_visible()
        screenshot(page, "desktop-operator-establishments")


def test_an_attendance_checkbox_is_a_44_px_tap_target_on_a_phone(
    page, live_server, olive, sign_in, screenshot
):
    with time_machine.travel(NOON):
        page.set_viewport_size(PHONE)
        sign_in(page, "olive")
        page.goto(f"{live_server.url}/portal/operator/FSE-0042/training/")
        box = page.get_by_label("Rosa Diaz attended").bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
        assert _inside(page, page.get_by_label("Rosa Diaz signed the log"))
        screenshot(page, "phone-operator-training")


def test_the_agency_bar_keeps_off_the_screens_edge_on_a_phone(page, live_server, bob, sign_in):
    page.set_viewport_size(PHONE)
    sign_in(page, "bob")
    for part in ("#current-agency", "#agency-select"):
        box = page.locator(part).bounding_box()
        assert box["x"] >= 12, (part, box)
        assert box["x"] + box["width"] <= PHONE["width"] - 12, (part, box)


def test_a_new_sign_in_lands_on_the_agency_chosen_last(page, live_server, bob, sign_in):
    sign_in(page, "bob")
    expect(page.locator("#current-agency")).to_contain_text("City of San Clemente")
    page.locator("#agency-select").select_option(label="The Town")
    page.get_by_role("button", name="Switch").click()
    expect(page.locator("#current-agency")).to_contain_text("The Town")
    sign_out(page)

    sign_in(page, "bob")

    expect(page.locator("#current-agency")).to_contain_text("The Town")


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_switching_on_a_records_page_lands_on_its_list(
    page, live_server, bob, sign_in, screenshot, screen
):
    page.set_viewport_size(PHONE if screen == "phone" else DESKTOP)
    sign_in(page, "bob")
    page.goto(f"{live_server.url}/establishments/SC-0012/")
    page.locator("#agency-select").select_option(label="The Town")
    with page.expect_navigation() as landed:
        page.get_by_role("button", name="Switch").click()

    assert landed.value.status == 200
    expect(page).to_have_url(f"{live_server.url}/establishments/")
    expect(page.locator("#current-agency")).to_contain_text("The Town")
    expect(page.get_by_role("link", name="Town Diner")).to_be_visible()
    screenshot(page, f"{screen}-agency-switched-to-list")

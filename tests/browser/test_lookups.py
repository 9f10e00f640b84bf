"""Choosing among thousands of records in a real browser (web/combobox.js): a manager
registers an establishment by typing part of its operator's name and picking it with the
keyboard, at desktop and phone width, shot with the list open and checked with axe-core."""

import re

import pytest
from playwright.sync_api import expect

from fogkeeper.registry.models import FoodServiceEstablishment, Operator
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import serious_violations
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}


def label(text: str):
    return re.compile(rf"^{re.escape(text)}:?$")


def choose(page, field: str, typed: str, option: str) -> None:
    """Type `typed` into the combobox labelled `field`, then pick `option` with the keyboard
    (down until it is the one focused, enter)."""
    box = page.get_by_role("combobox", name=label(field))
    box.fill(typed)
    expect(page.get_by_role("listbox").get_by_role("option", name=option)).to_be_visible()
    for _ in range(20):
        box.press("ArrowDown")
        active = box.get_attribute("aria-activedescendant")
        if active and page.locator(f"#{active}").text_content() == option:
            break
    box.press("Enter")
    expect(box).to_have_value(option)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_manager_picks_the_operator_by_typing_part_of_its_name(
    page, live_server, sign_in, screenshot, size
):
    sc, town = two_agencies()
    Operator.objects.bulk_create(Operator(agency=sc, name=f"Operator {n}") for n in range(300))
    harbor = Operator.objects.create(agency=sc, name="Harbor Foods LLC", mailing_address="9 Pier")
    Operator.objects.create(agency=town, name="Harbor Diner Inc")
    make_user("maria", sc, role="manager")
    page.set_viewport_size(DESKTOP if size == "desktop" else PHONE)
    sign_in(page, "maria")

    page.goto(f"{live_server.url}/registry/establishments/new/")
    page.get_by_label(label("Establishment code")).fill("FSE-0901")
    page.get_by_label(label("Name")).fill("Harbor Grill")
    page.get_by_label(label("Street address")).fill("2 Pier Way")
    page.get_by_label(label("Opened on")).fill("2026-01-05")
    box = page.get_by_role("combobox", name=label("Operator"))
    box.fill("harb")
    expect(page.get_by_role("listbox").get_by_role("option")).to_have_count(
        1
    )  # not the other agency's Harbor Diner
    expect(box).to_have_attribute("aria-expanded", "true")
    screenshot(page, f"lookup-operator-{size}")
    assert serious_violations(page) == []
    choose(page, "Operator", "harbor f", "Harbor Foods LLC, 9 Pier")
    expect(box).to_have_attribute("aria-expanded", "false")
    page.get_by_role("button", name="Save").click()

    expect(page).to_have_url(f"{live_server.url}/establishments/FSE-0901/")
    fse = FoodServiceEstablishment.objects.get(code="FSE-0901")
    assert fse.current_tenure().operator == harbor

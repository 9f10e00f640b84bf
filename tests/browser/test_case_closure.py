"""Closing a case in a real browser: the manager closes a case from its page with a reason,
is refused a settlement with nothing said of it, and the case then reads closed, offers no
further step and leaves the legal calendar. Shot at desktop and phone width, checked with
axe-core."""

import re

import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import CLOSURE, EnforcementAction
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import serious_violations
from tests.compliance.records import make_pier_taqueria
from tests.records import d
from tests.web.enforcement import san_clemente_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)
CASE = "/cases/FSE-0042/EC-7/"


@pytest.fixture
def world():
    sc, _ = two_agencies()
    san_clemente_case(make_pier_taqueria(sc))
    sweep_agency(sc, as_of=d("2025-06-06"))
    make_user("maria", sc, role="manager")


def label(text: str):
    return re.compile(rf"^{re.escape(text)}:?$")


def test_the_manager_closes_a_settled_case_from_its_page(
    world, page, live_server, sign_in, screenshot
):
    sign_in(page, "maria")
    page.goto(f"{live_server.url}{CASE}?as_of=2025-06-10")
    page.locator("#next-steps").get_by_role("link", name=re.compile("^Close the case")).click()
    form = page.locator("main form.record")
    form.get_by_label(label("Reason")).select_option("settled")
    form.get_by_role("button", name="Record", exact=True).click()
    expect(page.locator("#refusal")).to_contain_text("Say what the settlement provides")
    assert EnforcementAction.objects.filter(type=CLOSURE).count() == 0
    assert serious_violations(page) == []
    screenshot(page, "case-close-refused")
    form.get_by_label(label("Note")).fill("The operator paid $1,500 and pumps out monthly.")
    form.get_by_role("button", name="Record", exact=True).click()
    expect(page.locator(".usa-alert--success, .messages").first).to_contain_text(
        "Case EC-7 closed (settled)"
    )
    expect(page.locator("#case-state")).to_contain_text("Closed on 2025-06-10 by the manager")
    expect(page.locator("#next-steps")).to_contain_text("No step is yours to take")
    assert serious_violations(page) == []
    screenshot(page, "case-closed")
    page.set_viewport_size(PHONE)
    screenshot(page, "case-closed-phone")
    page.goto(f"{live_server.url}/calendar/?as_of=2025-06-10")
    expect(page.locator("main")).not_to_contain_text("EC-7")

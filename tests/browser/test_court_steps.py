"""A court step taken in a real browser (issue 42): the Town's manager records a criminal
citation (10.02.310) from the case page's next steps, with its court and case number, and
then the outcome in court in words; the case page lists the citation. Shot, and checked
with axe-core."""

import re

import pytest
from playwright.sync_api import expect

from fogkeeper.enforcement.models import EnforcementAction
from tests.browser.test_accessibility import serious_violations
from tests.compliance.records import make_pier_taqueria
from tests.web.enforcement import town_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)
CASE = "/cases/T-0042/EC-1/"


@pytest.fixture
def world():
    _, town = two_agencies()
    town_case(make_pier_taqueria(town, code="T-0042"))
    make_user("tess", town, role="manager")


def label(text: str):
    return re.compile(rf"^{re.escape(text)}:?$")


def test_the_manager_records_a_criminal_citation_and_its_outcome_in_court(
    world, page, live_server, sign_in, screenshot
):
    sign_in(page, "tess")
    page.goto(f"{live_server.url}{CASE}?as_of=2025-06-06")
    steps = page.locator("#next-steps")
    steps.get_by_role("link", name="Criminal citation (misdemeanor)", exact=True).click()
    expect(page.locator("main")).to_contain_text("10.02.310(A), (D)")
    form = page.locator("main form").first
    form.get_by_label(label("Action number")).fill("CC-1")
    form.get_by_label(label("Issued on")).fill("2025-06-02")
    form.get_by_label(label("Court"), exact=True).fill("Superior Court, County of Riverside")
    form.get_by_label(label("Court case number")).fill("25-CR-0042")
    form.get_by_label(label("Days charged")).fill("3")
    assert serious_violations(page) == []
    form.get_by_role("button", name="Record", exact=True).click()
    expect(page.locator(".usa-alert--success, .messages").first).to_contain_text("CC-1")
    page.locator("#next-steps").get_by_role(
        "link", name="Record the outcome in court (CC-1)"
    ).click()
    page.locator("main form").first.get_by_label(label("Court outcome")).fill(
        "Pleaded guilty; fined $500 for each of the 3 days."
    )
    page.locator("main form").first.get_by_role("button", name="Record", exact=True).click()
    expect(page.locator("main")).to_contain_text("Pleaded guilty")
    assert serious_violations(page) == []
    screenshot(page, "court-step-criminal-citation")
    fields = EnforcementAction.objects.get(code="CC-1").effective_fields()
    assert fields["court_case_number"] == "25-CR-0042"
    assert fields["court_outcome"].startswith("Pleaded guilty")

"""A request the ordinance gives the operator, in a real browser: Harbor Eats asks for a
revised pumping schedule of Pier Taqueria's interceptor in the portal (San Clemente
13.30.050(H)(1)(b)); the Utilities Manager opens it from the inbox and grants it; the
interceptor's frequency is the one granted, and the operator reads the decision."""

import re

import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.registry.models import GreaseControlDevice, Operator
from tests.browser.conftest import sign_out
from tests.browser.test_accessibility import serious_violations
from tests.browser.test_inbox import sign_in_as
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.portal.conftest import member
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

REQUESTS = "/portal/operator/FSE-0042/requests/"


@pytest.fixture
def san_clemente():
    sc, _ = two_agencies()
    make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    member("olive", sc, "operator", operator=Operator.objects.get(name="Harbor Eats Inc"))
    make_user("maria", sc, role="manager")
    return sc


def operator_asks(page, live_server, screenshot) -> None:
    sign_in_as(page, live_server, "olive")
    page.goto(f"{live_server.url}/portal/operator/FSE-0042/")
    page.get_by_role("link", name=re.compile("^Requests")).click()
    page.get_by_role("link", name="Request for a revised cleaning or pumping schedule").click()
    gi = GreaseControlDevice.objects.get(code="GI-1")
    page.get_by_label("Device").select_option(str(gi.pk))
    page.get_by_label(re.compile("^Requested frequency")).fill("120")
    page.get_by_label(re.compile("^Why")).fill("A year of measurements under 10% of depth.")
    screenshot(page, "request-file")
    page.get_by_role("button", name="File the request").click()
    expect(page.get_by_role("status")).to_contain_text("was filed")
    expect(page.locator("#filings")).to_contain_text("Waiting")
    assert serious_violations(page) == []
    sign_out(page)


def manager_grants(page, live_server, screenshot) -> None:
    sign_in_as(page, live_server, "maria")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Inbox").click()
    row = page.locator("#inbox tbody tr").filter(has_text="revised cleaning or pumping schedule")
    expect(row).to_contain_text("Harbor Eats Inc")
    row.get_by_role("link").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("revised cleaning or pumping")
    expect(page.locator("#filing")).to_contain_text("every 120 days")
    page.locator(
        "label", has_text=re.compile("^Grant$")
    ).click()  # USWDS draws the radio on its label
    page.get_by_label("Reasons").fill("Measurements support it.")
    assert serious_violations(page) == []
    screenshot(page, "request-decide")
    page.get_by_role("button", name="Record the answer").click()
    expect(page.locator("#answer")).to_contain_text("Granted")
    sign_out(page)


def test_an_operator_asks_for_a_revised_schedule_and_the_manager_grants_it(
    page, live_server, san_clemente, screenshot
):
    operator_asks(page, live_server, screenshot)
    manager_grants(page, live_server, screenshot)
    assert GreaseControlDevice.objects.get(code="GI-1").service_frequency_days == 120
    sign_in_as(page, live_server, "olive")
    page.goto(f"{live_server.url}{REQUESTS}")
    expect(page.locator("#filings")).to_contain_text("Granted")
    expect(page.locator("#filings")).to_contain_text("every 120 days")
    expect(page.locator("#filings")).to_contain_text("Measurements support it.")
    screenshot(page, "request-answered")

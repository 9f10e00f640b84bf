"""The staff inbox in a real browser: an operator files a permit application and a training in
the portal, a hauler submits a pump-out; the manager's inbox lists them newest first with who
filed them, and each link opens the record. The dashboard's as-of control changes its
figures."""

import re

import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.registry.models import GreaseControlDevice, Hauler, Operator, ServiceContract
from tests.browser.conftest import PHONE, sign_out
from tests.browser.test_accessibility import serious_violations
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.portal.conftest import member
from tests.records import d
from tests.web.people import PASSWORD, make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)
DESKTOP = {"width": 1280, "height": 900}


def label(text: str) -> re.Pattern:
    return re.compile(rf"^{re.escape(text)}:?$")


@pytest.fixture
def san_clemente():
    sc, _ = two_agencies()
    fse = make_pier_taqueria(sc)
    coastal = Hauler.objects.get(code="FSE-0042-H1")
    ServiceContract.objects.create(hauler=coastal, establishment=fse, since=d("2011-01-01"))
    sweep_agency(sc, as_of=AS_OF)
    member("olive", sc, "operator", operator=Operator.objects.get(name="Harbor Eats Inc"))
    member("hank", sc, "hauler", hauler=coastal)
    make_user("maria", sc, role="manager")
    return sc


def sign_in_as(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/accounts/" not in url)


def operator_files(page, live_server) -> None:
    sign_in_as(page, live_server, "olive")
    page.goto(f"{live_server.url}/portal/operator/FSE-0042/permit-application/")
    page.get_by_label(label("Name of the applicant")).fill("Harbor Eats Inc")
    page.get_by_label(label("Address of the applicant")).fill("101 Avenida Del Mar")
    page.get_by_label(label("Emergency contact")).fill("Ana Ruiz")
    page.get_by_label(label("Emergency contact's phone")).fill("949-555-0100")
    page.get_by_role("button", name=re.compile("File|Apply|Submit")).click()
    expect(page.locator("body")).to_contain_text("was filed")
    page.goto(f"{live_server.url}/portal/operator/FSE-0042/training/")
    page.get_by_label("Date of the training").fill("2025-06-20")
    page.get_by_label("Trainer").fill("Chef Lu")
    page.get_by_label("Ana Ruiz attended").check()
    page.get_by_role("button", name="File the training").click()
    expect(page.get_by_role("status")).to_contain_text("Training of 2025-06-20 filed")
    sign_out(page)


def hauler_submits(page, live_server) -> None:
    sign_in_as(page, live_server, "hank")
    trap = GreaseControlDevice.objects.get(code="GT-2")
    page.goto(f"{live_server.url}/portal/hauler/customers/FSE-0042/pump-out/")
    page.get_by_label("Device").select_option(str(trap.pk))
    page.get_by_label("Manifest number").fill("CP-900")
    page.get_by_label("Date of the pump-out").fill("2025-06-20")
    page.get_by_label("Gallons removed").fill("40")
    page.get_by_role("button", name="Submit").click()
    expect(page.get_by_role("status")).to_contain_text("Manifest CP-900 recorded")
    sign_out(page)


def test_the_manager_reads_what_was_filed_newest_first_and_opens_each(
    page, live_server, san_clemente, screenshot
):
    operator_files(page, live_server)
    hauler_submits(page, live_server)
    sign_in_as(page, live_server, "maria")
    expect(page.get_by_role("heading", level=1)).to_contain_text("What needs doing")
    inbox_link = page.get_by_role("navigation", name="Main").get_by_role("link", name="Inbox")
    expect(inbox_link).to_contain_text("3")
    inbox_link.click()
    rows = page.locator("#inbox tbody tr")
    expect(rows).to_have_count(3)
    for n, (kind, who) in enumerate(
        [
            ("Pump-out", "Coastal Pumping"),
            ("Training", "Harbor Eats Inc"),
            ("Permit application", "Harbor Eats Inc"),
        ]
    ):
        expect(rows.nth(n)).to_contain_text(kind)
        expect(rows.nth(n)).to_contain_text(who)
    assert serious_violations(page) == []
    screenshot(page, "inbox")
    page.set_viewport_size(PHONE)
    screenshot(page, "inbox-phone")
    page.set_viewport_size(DESKTOP)
    for n in range(3):
        page.locator("#inbox tbody tr").nth(n).get_by_role("link").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("Pier Taqueria")
        page.go_back()

    page.get_by_label("Kind of record").select_option("service")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#inbox tbody tr")).to_have_count(1)


def test_the_dashboards_as_of_control_changes_its_figures(
    page, live_server, san_clemente, screenshot
):
    sign_in_as(page, live_server, "maria")
    violations = page.locator("section[aria-labelledby=violations-heading] tbody tr")
    page.get_by_label("As of", exact=True).fill("2025-06-30")
    page.get_by_role("button", name="Show this day").click()
    expect(page).to_have_url(re.compile(r"as_of=2025-06-30"))
    expect(violations).to_have_count(5)
    screenshot(page, "dashboard-as-of")
    page.get_by_label("As of", exact=True).fill("2025-01-05")
    page.get_by_role("button", name="Show this day").click()
    expect(page.locator("main")).to_contain_text("As of 2025-01-05.")
    assert violations.count() < 5
    assert serious_violations(page) == []
    page.get_by_role("link", name="Back to today").click()
    expect(page.get_by_role("link", name="Back to today")).to_have_count(0)

    page.goto(f"{live_server.url}/dashboard/?as_of=2026-02-30")
    expect(page.locator("#as-of-error")).to_contain_text("is not a date")
    assert serious_violations(page) == []
    page.set_viewport_size(PHONE)
    screenshot(page, "dashboard-as-of-phone")

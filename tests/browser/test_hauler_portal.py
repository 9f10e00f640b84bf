"""The hauler portal in a real browser: a hauler signs in, submits a pump-out for a customer,
and finds it among its submissions."""

import pytest
from playwright.sync_api import expect

from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import GreaseControlDevice, Hauler, ServiceContract
from fogkeeper.web.models import Membership
from tests.compliance.records import make_pier_taqueria
from tests.records import d
from tests.web.people import PASSWORD, make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


def make_hauler_login(agency, username: str = "hank"):
    """hank works for Coastal Pumping, whose customer is Pier Taqueria (FSE-0042)."""
    fse = make_pier_taqueria(agency)
    coastal = Hauler.objects.get(code="FSE-0042-H1")
    ServiceContract.objects.create(hauler=coastal, establishment=fse, since=d("2011-01-01"))
    user = make_user(username)
    Membership.objects.create(user=user, agency=agency, role="hauler", hauler=coastal)
    return user


def sign_in_hauler(page, live_server, username: str = "hank") -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{live_server.url}/portal/hauler/")


def test_a_hauler_submits_a_pump_out_and_sees_it_listed(page, live_server, screenshot):
    sc, _ = two_agencies()
    make_hauler_login(sc)
    trap = GreaseControlDevice.objects.get(code="GT-2")
    sign_in_hauler(page, live_server)

    expect(page.get_by_role("heading", level=1)).to_have_text("Your customers")
    screenshot(page, "hauler-customers")
    page.get_by_role("link", name="Submit a pump-out for Pier Taqueria").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Submit a pump-out")
    page.get_by_label("Device").select_option(str(trap.pk))
    page.get_by_label("Manifest number").fill("CP-900")
    page.get_by_label("Date of the pump-out").fill("2025-06-20")
    page.get_by_label("Gallons removed").fill("40")
    page.get_by_label("FOG depth before pumping (in)").fill("1.5")
    screenshot(page, "hauler-submit-pump-out")
    page.get_by_role("button", name="Submit").click()

    expect(page).to_have_url(f"{live_server.url}/portal/hauler/customers/FSE-0042/")
    expect(page.get_by_role("status")).to_contain_text("Manifest CP-900 recorded")
    page.get_by_role("link", name="Your submissions").click()
    row = page.get_by_role("row", name="CP-900")
    expect(row).to_contain_text("Pier Taqueria")
    expect(row).to_contain_text("Recorded")
    screenshot(page, "hauler-submissions")
    service = Service.objects.get(manifest_number="CP-900")
    assert (service.device, service.source, service.submitted_by.username) == (
        trap,
        "hauler_form",
        "hank",
    )


def test_a_hauler_issues_its_api_token_and_sees_it_once(page, live_server, screenshot):
    from rest_framework.authtoken.models import Token

    from .conftest import PHONE
    from .test_accessibility import serious_violations

    sc, _ = two_agencies()
    make_hauler_login(sc)
    sign_in_hauler(page, live_server)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="API token").click()
    expect(page.locator("#token-state")).to_have_text("You have no API token yet.")
    page.get_by_role("button", name="Issue a token").click()
    key = Token.objects.get(user__username="hank").key
    expect(page.locator("#token")).to_have_text(key)
    assert serious_violations(page) == []
    screenshot(page, "hauler-api-token")
    page.set_viewport_size(PHONE)
    screenshot(page, "hauler-api-token-phone")
    page.reload()
    expect(page.locator("#token-state")).to_contain_text("You have a token, issued on")
    expect(page.locator("body")).not_to_contain_text(key)

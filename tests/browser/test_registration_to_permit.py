"""A new restaurant from registration to its permit, only through the pages: the manager
registers it and its interceptor; its operator asks for an account, is approved, sets a
password and files the permit application in the portal; the manager reviews it and issues
the permit with a pump-out frequency, and the sweep's findings for it show at once (the
missing permit closes, the pump-out the new frequency makes overdue opens)."""

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from playwright.sync_api import expect

from fogkeeper.compliance.models import Finding
from fogkeeper.permits.models import Permit
from tests.web.people import make_user, two_agencies

from .conftest import PHONE, sign_out
from .test_accessibility import serious_violations

pytestmark = pytest.mark.django_db(transaction=True)

NOON = datetime(2026, 12, 1, 12, tzinfo=ZoneInfo("America/Los_Angeles"))
DESKTOP = {"width": 1280, "height": 900}


def field(page, text: str):
    return page.get_by_label(re.compile(rf"^{re.escape(text)}:?$"))


def look(page, screenshot, name: str) -> None:
    assert serious_violations(page) == [], name
    screenshot(page, name)
    page.set_viewport_size(PHONE)
    screenshot(page, f"{name}-phone")
    page.set_viewport_size(DESKTOP)


def register(page, live_server) -> None:
    page.goto(f"{live_server.url}/establishments/")
    page.get_by_role("link", name="Register an establishment").click()
    field(page, "Establishment code").fill("FSE-0901")
    field(page, "Name").fill("Capistrano Grill")
    field(page, "Street address").fill("200 Camino Real")
    field(page, "Opened on").fill("2026-10-01")
    field(page, "New operator's name").fill("Grill Co")
    page.get_by_role("button", name="Save").click()
    expect(page).to_have_url(f"{live_server.url}/establishments/FSE-0901/")


def install_interceptor(page) -> None:
    page.get_by_role("link", name="Install a device").click()
    field(page, "Device number").fill("GI-1")
    field(page, "Kind of device").select_option("interceptor")
    field(page, "Installed on").fill("2026-10-01")
    field(page, "Capacity (gallons)").fill("1000")
    field(page, "Design depth (inches)").fill("48")
    field(page, "Compartments").fill("2")
    field(page, "Manhole diameter (inches)").fill("24")
    page.get_by_role("button", name="Save").click()


def operator_enrols(page, live_server) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("link", name="Ask for an account").click()
    page.get_by_role("link", name="City of San Clemente").click()
    page.get_by_text("FSE operator", exact=True).click()
    for name, value in {
        "Business name": "Grill Co",
        "Your name": "Gina Ortiz",
        "Email": "gina@grill.example",
        "Phone": "949-555-0190",
        "Mailing address": "200 Camino Real, San Clemente",
        "Establishments you run": "Capistrano Grill, FSE-0901",
    }.items():
        field(page, name).fill(value)
    page.get_by_role("button", name="Send the request").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Request sent")


def manager_approves(page, sign_in) -> None:
    sign_in(page, "maria")
    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name=re.compile("^People")).click()
    page.get_by_role("link", name=re.compile("^Account requests")).click()
    page.get_by_role("link", name="Grill Co").click()
    # the operator registered above, found by its name: approving makes no second one
    expect(field(page, "Operator on record")).to_have_value("Grill Co")
    field(page, "Establishments it runs").fill("FSE-0901")
    page.get_by_role("button", name="Approve").click()
    expect(page.get_by_role("status")).to_contain_text("Grill Co approved")
    sign_out(page)


def operator_sets_password_and_applies(page, live_server) -> None:
    link = re.search(r"https?://\S+/accounts/reset/\S+", mail.outbox[-1].body).group(0)
    page.goto(link)
    field(page, "New password").fill("grill on the coast 26")
    field(page, "New password confirmation").fill("grill on the coast 26")
    page.get_by_role("button", name="Set the password").click()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("gina@grill.example")
    page.get_by_label("Password").fill("grill on the coast 26")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/portal/" in url)
    page.goto(f"{live_server.url}/portal/operator/FSE-0901/permit-application/")
    field(page, "Name of the applicant").fill("Grill Co")
    field(page, "Address of the applicant").fill("200 Camino Real, San Clemente")
    field(page, "Emergency contact").fill("Gina Ortiz")
    field(page, "Emergency contact's phone").fill("949-555-0190")
    page.get_by_role("button", name=re.compile("File|Apply|Submit")).click()
    expect(page.get_by_role("status")).to_be_visible()
    sign_out(page)


def test_a_new_restaurant_is_registered_applies_and_gets_its_permit_with_findings_at_once(
    page, live_server, sign_in, screenshot, settings
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    with time_machine.travel(NOON):
        sc, _ = two_agencies()
        make_user("maria", sc, role="manager")
        page.set_viewport_size(DESKTOP)
        sign_in(page, "maria")
        register(page, live_server)
        install_interceptor(page)
        page.goto(f"{live_server.url}/establishments/FSE-0901/")
        expect(page.locator("#findings")).to_contain_text("operates without a Discharge Permit")
        look(page, screenshot, "new-fse-before-permit")
        sign_out(page)

        operator_enrols(page, live_server)
        manager_approves(page, sign_in)
        operator_sets_password_and_applies(page, live_server)

        sign_in(page, "maria")
        page.goto(f"{live_server.url}/permits/applications/")
        page.locator("#applications tbody tr").filter(has_text="Capistrano Grill").get_by_role(
            "link"
        ).click()
        expect(page.locator("#contents")).to_contain_text("Gina Ortiz")
        field(page, "Permit number").fill("SC-FOG-0901")
        field(page, "Expires on").fill("2031-11-30")
        field(page, "Pump-out frequency (days)").fill("60")
        field(page, "Device type and size required").fill("1,000 gal interceptor")
        page.get_by_role("button", name="Approve and issue").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Discharge Permit SC-FOG-0901")

        page.goto(f"{live_server.url}/establishments/FSE-0901/")
        findings = page.locator("#findings")
        expect(findings).not_to_contain_text("operates without a Discharge Permit")
        expect(findings).to_contain_text("was due for a full pump-out on 2026-11-30")
        look(page, screenshot, "new-fse-after-permit")

    permit = Permit.objects.get(number="SC-FOG-0901")
    assert (permit.holder, permit.service_frequency_days) == ("Grill Co", 60)
    open_rules = set(
        Finding.objects.filter(establishment__code="FSE-0901", open=True).values_list(
            "rule", flat=True
        )
    )
    assert "gcd.service_overdue" in open_rules and "permit.missing" not in open_rules


def test_a_paper_application_is_recorded_and_its_gaps_listed_for_review(
    page, live_server, sign_in, screenshot
):
    from tests.records import make_establishment

    with time_machine.travel(NOON):
        sc, _ = two_agencies()
        make_establishment(sc, "FSE-0100", name="Harbor Grill", operator="Grill LLC")
        make_user("maria", sc, role="manager")
        page.set_viewport_size(DESKTOP)
        sign_in(page, "maria")
        page.goto(f"{live_server.url}/establishments/FSE-0100/")
        page.get_by_role("link", name="Record a paper application").click()
        field(page, "Received on").fill("2026-11-30")
        field(page, "Name of the applicant").fill("Grill LLC")
        field(page, "Address of the applicant").fill("200 Avenida Del Mar")
        look(page, screenshot, "permit-paper-application")
        page.get_by_role("button", name="Record the application").click()
        expect(page.get_by_role("status")).to_contain_text("received on 2026-11-30 was recorded")
        contents = page.locator("#contents")
        expect(contents.get_by_role("row", name=re.compile("^Emergency contact "))).to_contain_text(
            "13.30.080(H)(1)"
        )
        look(page, screenshot, "permit-paper-application-review")

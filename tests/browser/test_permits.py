"""Permits in a real browser: an operator files a Discharge Permit application in the portal
(refused first for the emergency contact the ordinance requires), the Utilities Manager reviews
it in the queue beside a paper application missing that contact, approves it with a service
frequency and an expiry, downloads the permit, and sees the permit's finding gone at once;
then modifies the frequency (refused on 30 days' notice, accepted on 45) and suspends the
permit from the Utilities Manager's decision."""

import re
from datetime import date, datetime
from io import BytesIO
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import expect
from pypdf import PdfReader

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.permits.models import Permit, PermitModification
from fogkeeper.permits.services import permit_application_submit
from fogkeeper.registry.models import Operator
from tests.browser.conftest import PHONE, sign_out
from tests.browser.test_accessibility import serious_violations
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.portal.conftest import member
from tests.records import make_establishment
from tests.web.enforcement import san_clemente_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

NOON = datetime(2025, 6, 30, 12, tzinfo=ZoneInfo("America/Los_Angeles"))


@pytest.fixture
def world():
    with time_machine.travel(NOON):
        sc, _ = two_agencies()
        fse = make_pier_taqueria(sc)
        san_clemente_case(fse)
        other = make_establishment(sc, "FSE-0100", name="Harbor Grill", operator="Grill LLC")
        permit_application_submit(
            establishment=other,
            submitted_on=date(2025, 6, 2),
            applicant_name="Grill LLC",
            applicant_address="200 Avenida Del Mar",
        )
        sweep_agency(sc, as_of=AS_OF)
        operator = Operator.objects.get(agency=sc, name="Harbor Eats Inc")
        member("olive", sc, "operator", operator=operator)
        make_user("maria", sc, role="manager")
        yield sc


def label(text: str):
    return re.compile(rf"^{re.escape(text)}:?$")


def shoot(page, screenshot, name: str) -> None:
    assert serious_violations(page) == []
    screenshot(page, name)
    page.set_viewport_size(PHONE)
    screenshot(page, f"{name}-phone")
    page.set_viewport_size({"width": 1280, "height": 900})


def file_application(page, live_server, sign_in):
    sign_in_portal(page, live_server, "olive")
    page.goto(f"{live_server.url}/portal/operator/FSE-0042/permit-application/")
    page.get_by_label(label("Name of the applicant")).fill("Harbor Eats Inc")
    page.get_by_label(label("Address of the applicant")).fill("101 Avenida Del Mar")
    page.get_by_role("button", name=re.compile("File|Apply|Submit")).click()
    expect(page.locator("body")).to_contain_text("13.30.080(H)(1)")
    page.get_by_label(label("Emergency contact")).fill("Ana Ruiz")
    page.get_by_label(label("Emergency contact's phone")).fill("949-555-0100")
    page.get_by_role("button", name=re.compile("File|Apply|Submit")).click()
    expect(page.locator("body")).to_contain_text("was filed")
    sign_out(page)


def sign_in_portal(page, live_server, username):
    from tests.web.people import PASSWORD

    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state()


def test_a_manager_reviews_an_application_issues_modifies_and_suspends_the_permit(
    page, live_server, world, sign_in, screenshot, tmp_path
):
    with time_machine.travel(NOON):
        file_application(page, live_server, sign_in)
        sign_in_portal(page, live_server, "maria")
        page.goto(f"{live_server.url}/establishments/FSE-0042/?as_of=2025-06-30")
        findings = page.locator("#findings")
        expect(findings).to_contain_text("Permit ended by a new Operator")

        nav = page.get_by_role("navigation", name="Main")
        expect(nav).to_contain_text("2 waiting")
        nav.get_by_role("link", name=re.compile("Permits")).click()
        rows = page.locator("#applications tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.filter(has_text="Harbor Grill")).to_contain_text("13.30.080(H)(1)")
        expect(rows.filter(has_text="Pier Taqueria")).to_contain_text("Nothing required")
        shoot(page, screenshot, "permit-applications")

        rows.filter(has_text="Pier Taqueria").get_by_role("link").click()
        expect(page.locator("#contents")).to_contain_text("Ana Ruiz")
        page.get_by_label(label("Permit number")).fill("FSE-0042-P3")
        page.get_by_label(label("Expires on")).fill("2030-07-01")
        page.get_by_label(label("Pump-out frequency (days)")).fill("60")
        page.get_by_label(label("Device type and size required")).fill("1,000 gal interceptor")
        page.get_by_role("button", name="Approve and issue").click()
        expect(page.locator("body")).to_contain_text("runs at most 5 years (13.30.050(E))")
        shoot(page, screenshot, "permit-application")
        page.get_by_label(label("Expires on")).fill("2030-06-29")
        page.get_by_role("button", name="Approve and issue").click()

        expect(page.get_by_role("heading", level=1)).to_have_text("Discharge Permit FSE-0042-P3")
        expect(page.locator("#terms")).to_contain_text("every 60 days")
        shoot(page, screenshot, "permit")
        with page.expect_download() as info:
            page.get_by_role("link", name=re.compile("Download the Discharge Permit")).click()
        path = tmp_path / "permit.pdf"
        info.value.save_as(path)
        text = "".join(p.extract_text() for p in PdfReader(BytesIO(path.read_bytes())).pages)
        assert "FSE-0042-P3" in text and "Harbor Eats Inc" in text and "Every 60 days" in text

        page.goto(f"{live_server.url}/establishments/FSE-0042/?as_of=2025-06-30")
        expect(page.locator("#findings")).not_to_contain_text("Permit ended by a new Operator")
        page.get_by_role("link", name="FSE-0042-P3").click()

        page.get_by_role("link", name="Modify").click()
        page.get_by_label(label("In effect from")).fill("2025-07-30")
        page.get_by_label(label("New pump-out frequency (days)")).fill("30")
        page.get_by_label(label("Reason for the change")).fill("Accumulation over the limit")
        page.get_by_role("button", name="Send the notice").click()
        expect(page.locator("body")).to_contain_text("at least 45 days")
        shoot(page, screenshot, "permit-modify")
        page.get_by_label(label("In effect from")).fill("2025-08-14")
        page.get_by_role("button", name="Send the notice").click()
        expect(page.locator("#modifications")).to_contain_text("2025-08-14 (not yet in effect)")
        assert PermitModification.objects.get().letter.pdf[:4] == b"%PDF"

        page.get_by_role("link", name="Suspend from the decision").click()
        expect(page.get_by_label(label("Decision"))).to_contain_text("MD-1")
        page.get_by_label(label("Suspended from")).fill("2025-07-01")
        shoot(page, screenshot, "permit-suspend")
        page.get_by_role("button", name="Suspend").click()
        expect(page.locator("#terms")).to_contain_text("from 2025-07-01 until further order")
        assert Permit.objects.get(number="FSE-0042-P3").status == "suspended"

        page.goto(f"{live_server.url}/permits/?q=harbor")
        expect(page.locator("#permits")).to_contain_text("FSE-0042-P3")
        shoot(page, screenshot, "permits")

"""A Town overflow entered at an establishment, then its written report and clearance
inspection recorded from the incident page, closing its findings, with the spill's times and
volumes as the State asks them (a category 2 spill, its deadlines shown); and an imported CIWQS
spill the address match missed, matched to its establishment by the manager."""

import re
from datetime import date

import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.incidents.models import Incident
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import serious_violations
from tests.records import make_establishment
from tests.web.people import PASSWORD, make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}


def label(text: str):
    return re.compile(rf"^{re.escape(text)}:?$")


def sign_in(page, live_server, username: str) -> None:
    """Through the sign-in form; each role lands on its own page (the inspector's field list,
    the manager's dashboard), so only leaving the sign-in page is awaited."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))


def check_page(page, screenshot, name: str) -> None:
    """Screenshots at desktop and phone width, and no serious axe-core violation."""
    screenshot(page, name)
    found = serious_violations(page)
    assert found == [], "\n".join(found)
    page.set_viewport_size(PHONE)
    screenshot(page, f"{name}-phone")
    page.set_viewport_size(DESKTOP)


@pytest.fixture
def town():
    _, town = two_agencies()
    fse = make_establishment(
        town, code="T-1", name="Town Diner", address="12 Main St", opened_on="2020-01-01"
    )
    sweep_establishment(fse, as_of=date(2026, 12, 1))
    return town


def test_an_inspector_closes_a_town_overflow_with_its_report_and_clearance(
    page, live_server, screenshot, town
):
    make_user("ines", town)
    pack = town.get_pack()
    overflow = pack.rules["incident.overflow"].title
    late = pack.rules["incident.written_report_late"].title
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "ines")

    page.goto(f"{live_server.url}/establishments/T-1/")
    page.get_by_role("link", name="Record an incident").click()
    page.get_by_label(label("Incident number")).fill("SSO-77")
    page.get_by_label(label("Date of the incident")).fill("2026-11-10")
    page.get_by_label(label("Kind")).select_option("overflow")
    page.get_by_text("Caused by FOG").click()
    page.get_by_label(label("Gallons spilled")).fill("35")
    page.get_by_role("button", name="Record").click()

    findings = page.locator("#findings")
    expect(findings.get_by_role("row", name=overflow)).to_be_visible()
    expect(findings.get_by_role("row", name=late)).to_be_visible()
    page.locator("#incidents").get_by_role("link", name="Overflow SSO-77").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Overflow SSO-77")
    expect(page.locator("#incident-findings")).to_contain_text("Open")
    check_page(page, screenshot, "incident")

    page.get_by_role("link", name="Record the investigation, report or clearance").click()
    page.get_by_label(label("Written report received on")).fill("2026-11-24")
    page.get_by_label(label("Clearance inspection on")).fill("2026-11-30")
    page.get_by_label(label("Cause")).fill("grease in the lateral")
    page.get_by_label(label("Gallons spilled")).fill("1500")
    page.get_by_label(label("Spill started (local time)")).fill("2026-11-10T08:00")
    page.get_by_label(label("Spill ended (local time)")).fill("2026-11-10T10:00")
    page.get_by_label(label("Agency learned of the spill (local time)")).fill("2026-11-10T08:30")
    page.get_by_label(label("Reached surface water")).select_option(label="No")
    page.get_by_label(label("Reached a storm drain")).select_option(label="No")
    check_page(page, screenshot, "incident-edit")
    page.get_by_role("button", name="Save").click()

    expect(page.get_by_role("status")).to_contain_text("Town Diner was evaluated again.")
    expect(page.locator("#spill-category")).to_have_text(
        "Category 2, derived from the spill's data"
    )
    expect(page.locator("#category-reason")).to_contain_text("1,000 gallons or more is category 2")
    deadlines = page.locator("#spill-deadlines")
    # Known on Tuesday November 10: Veterans Day (Wednesday) is no business day.
    expect(deadlines.get_by_role("row", name="Draft Spill Report")).to_contain_text("2026-11-16")
    expect(deadlines.get_by_role("row", name="Draft Spill Report")).to_contain_text("§3.2.1")
    expect(deadlines.get_by_role("row", name="Certified Spill Report")).to_contain_text(
        "2026-11-25"
    )
    check_page(page, screenshot, "incident-state-reporting")
    expect(page.locator("#clearance")).to_have_text("2026-11-30")
    expect(page.locator("#incident-findings")).not_to_contain_text("Open")
    page.get_by_role("link", name="Town Diner (T-1)").click()
    expect(page.locator("#findings").get_by_role("row", name=overflow)).to_have_count(0)
    expect(page.locator("#findings").get_by_role("row", name=late)).to_have_count(0)


def test_a_manager_matches_an_unmatched_ciwqs_spill(page, live_server, screenshot, town):
    Incident.objects.create(
        agency=town,
        code="712345",
        date=date(2026, 10, 2),
        kind="spill",
        fog_caused=True,
        address="12 Main",
        normalised_address="12 main",
        source="ciwqs",
        source_record={
            "SPILL_ID": "712345",
            "ADDRESS": "12 Main",
            "CITY": "Town",
            "SPILL_CAUSE": "Grease deposition",
        },
    )
    make_user("mona", town, role="manager")
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "mona")

    page.get_by_role("link", name="Incidents").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Incidents")
    check_page(page, screenshot, "incidents")
    page.get_by_role("link", name="1 imported spill to review").click()
    expect(page.locator("#to-review")).to_contain_text("Grease deposition")
    check_page(page, screenshot, "incidents-review")
    page.get_by_role("link", name="Review 712345").click()
    page.get_by_text("Town Diner (T-1), 12 Main St").click()
    check_page(page, screenshot, "incident-match")
    page.get_by_role("button", name="Match 712345 to the establishment chosen").click()

    expect(page.get_by_role("status")).to_contain_text("Town Diner was evaluated again.")
    expect(page.locator("#incident-facts")).to_contain_text("Town Diner, 12 Main St")
    expect(page.locator("#incident-findings")).to_contain_text(
        town.get_pack().rules["incident.overflow"].title
    )
    spill = Incident.objects.get(code="712345")
    assert (spill.establishment.code, spill.attributed) == ("T-1", True)

"""Keeping the registry current in a real browser: a manager registers an establishment with a
new operator on a new parcel, edits, closes and reopens it; the Town records a remodel noticed
too late; an inspector adds a lateral to a sewer segment. Each new page is shot at desktop
and phone width and checked with axe-core."""

import re

import pytest
from playwright.sync_api import expect

from fogkeeper.registry.models import FoodServiceEstablishment, Lateral, SewerSegment
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import serious_violations
from tests.browser.test_lookups import choose
from tests.records import make_establishment
from tests.web.people import PASSWORD, make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}


def label(text: str):
    return re.compile(rf"^{re.escape(text)}:?$")


@pytest.fixture
def check(screenshot):
    """Shoot the page at desktop and phone width and find no serious axe-core violation."""

    def run(page, name: str) -> None:
        screenshot(page, f"registry-{name}")
        page.set_viewport_size(PHONE)
        screenshot(page, f"registry-{name}-phone")
        page.set_viewport_size(DESKTOP)
        assert serious_violations(page) == [], name

    return run


@pytest.fixture
def sign_in(live_server):
    """Signs in through the login form, landing wherever the role's work is."""

    def go(page, username: str) -> None:
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(lambda url: "/accounts/login/" not in url)

    return go


def save(page) -> None:
    page.get_by_role("button", name="Save").click()


def test_a_manager_registers_edits_closes_and_reopens_an_establishment(
    page, live_server, sign_in, check
):
    sc, _ = two_agencies()
    make_user("maria", sc, role="manager")
    page.set_viewport_size(DESKTOP)
    sign_in(page, "maria")

    page.get_by_role("link", name="Registry").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Registry")
    check(page, "index")
    page.get_by_role("link", name="Property owners").click()
    page.get_by_role("link", name="Add a property owner").click()
    page.get_by_label(label("Name")).fill("Harbor Holdings")
    check(page, "owner-new")
    save(page)
    expect(page.get_by_role("row", name=re.compile("Harbor Holdings"))).to_be_visible()
    check(page, "owners")

    page.goto(f"{live_server.url}/registry/parcels/")
    page.get_by_role("link", name="Add a parcel").click()
    page.get_by_label(label("Assessor's parcel number (APN)")).fill("691-111-01")
    page.get_by_label(label("Address")).fill("1 Avenida Del Mar")
    choose(page, "Property owner", "harbor", "Harbor Holdings")
    check(page, "parcel-new")
    save(page)
    expect(page.get_by_role("row", name=re.compile("691-111-01"))).to_contain_text(
        "Harbor Holdings"
    )
    check(page, "parcels")

    page.goto(f"{live_server.url}/establishments/")
    page.get_by_role("link", name="Register an establishment").click()
    page.get_by_label(label("Establishment code")).fill("FSE-0900")
    page.get_by_label(label("Name")).fill("Dana Deli")
    page.get_by_label(label("Street address")).fill("1 Avenida Del Mar")
    page.get_by_label(label("Opened on")).fill("2027-01-05")
    choose(page, "Parcel", "691-111", "691-111-01, 1 Avenida Del Mar")
    page.get_by_label(label("New operator's name")).fill("Deli Co")
    save(page)
    expect(page.get_by_text("is in the future")).to_be_visible()
    expect(page.get_by_label(label("Name"))).to_have_value("Dana Deli")
    check(page, "establishment-new-refused")
    page.get_by_label(label("Opened on")).fill("2026-01-05")
    save(page)

    expect(page).to_have_url(f"{live_server.url}/establishments/FSE-0900/")
    expect(page.locator("#operator")).to_contain_text("Deli Co, since 2026-01-05")
    page.get_by_role("link", name="Edit", exact=True).click()
    page.get_by_label(label("Name")).fill("Dana Point Deli")
    check(page, "establishment-edit")
    save(page)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Dana Point Deli")

    page.get_by_role("link", name="Close", exact=True).click()
    page.get_by_label(label("Closed on")).fill("2026-11-20")
    check(page, "establishment-close")
    save(page)
    expect(page.get_by_text("is closed from 2026-11-20")).to_be_visible()
    page.get_by_role("link", name="Reopen", exact=True).click()
    check(page, "establishment-reopen")
    save(page)
    expect(page.get_by_text("is open again")).to_be_visible()
    fse = FoodServiceEstablishment.objects.get(code="FSE-0900")
    assert (fse.name, fse.parcel.apn, fse.closed_on) == ("Dana Point Deli", "691-111-01", None)

    page.locator("#operator").get_by_role("link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Deli Co")
    check(page, "operator")
    page.get_by_role("link", name="Edit", exact=True).click()
    page.get_by_label(label("Phone")).fill("949-555-0100")
    check(page, "operator-edit")
    save(page)
    expect(page.get_by_text("949-555-0100")).to_be_visible()
    page.get_by_role("link", name="Operators").first.click()
    check(page, "operators")


def test_the_town_records_a_remodel_noticed_short_of_60_days(page, live_server, sign_in, check):
    _, town = two_agencies()
    make_establishment(town, code="T-0100", name="Town Diner", operator="Diner LLC")
    make_user("fiona", town, role="manager")
    page.set_viewport_size(DESKTOP)
    sign_in(page, "fiona")

    page.goto(f"{live_server.url}/establishments/T-0100/")
    page.get_by_role("link", name="Record a remodel or change of operation").click()
    expect(page.locator("#notice-rule")).to_contain_text("at least 60 days before it")
    page.get_by_label(label("Kind of change")).select_option("remodel")
    page.get_by_label(label("Date of the change (planned or done)")).fill("2026-12-20")
    page.get_by_label(label("Agency notified on")).fill("2026-11-01")
    check(page, "change-new")
    page.get_by_role("button", name="Record the change").click()

    expect(
        page.get_by_text(re.compile("Notice came 49 days ahead: short of the 60 days"))
    ).to_be_visible()
    expect(page.get_by_text(re.compile(r"10\.02\.150\(A\)")).first).to_be_visible()


def test_an_inspector_adds_a_lateral_to_a_sewer_segment(page, live_server, sign_in, check):
    sc, _ = two_agencies()
    make_establishment(sc, code="FSE-0042")
    SewerSegment.objects.create(agency=sc, code="SEG-12", description="Avenida Del Mar main")
    make_user("ines", sc)
    page.set_viewport_size(DESKTOP)
    sign_in(page, "ines")

    page.goto(f"{live_server.url}/registry/segments/")
    check(page, "segments")
    page.get_by_role("link", name="Edit segment SEG-12").click()
    check(page, "segment-edit")
    page.goto(f"{live_server.url}/registry/segments/new/")
    page.get_by_label(label("Segment code")).fill("SEG-13")
    page.locator("label[for=id_prone_to_blockage]").click()
    save(page)
    expect(page.get_by_text("needs its cleaning frequency")).to_be_visible()
    check(page, "segment-new-refused")

    page.goto(f"{live_server.url}/establishments/FSE-0042/")
    page.get_by_role("link", name="Add a sewer lateral").click()
    choose(page, "Sewer segment", "seg-1", "SEG-12, Avenida Del Mar main")
    page.get_by_label(label("Description")).fill("Rear cleanout")
    page.get_by_label(label("Last inspected on")).fill("2026-10-01")
    check(page, "lateral-new")
    save(page)
    expect(page.locator("#laterals")).to_contain_text("To segment SEG-12: Rear cleanout")
    lateral = Lateral.objects.get()
    assert (lateral.segment.code, str(lateral.last_inspected_on)) == ("SEG-12", "2026-10-01")
    page.get_by_role("link", name="Edit the lateral to SEG-12").click()
    check(page, "lateral-edit")
    page.goto(f"{live_server.url}/establishments/FSE-0042/laterals/{lateral.pk}/remove/")
    check(page, "lateral-remove")

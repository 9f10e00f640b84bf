"""The staff pages in a real browser: signing in, the dashboard, finding an establishment,
its page, the same on a phone, and the map."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.registry.models import Lateral, SewerSegment
from tests.browser.conftest import PHONE
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def san_clemente():
    sc, _ = two_agencies()
    fse = make_pier_taqueria(sc)
    fse.latitude, fse.longitude = Decimal("33.4210"), Decimal("-117.6120")
    fse.save()
    segment = SewerSegment.objects.create(
        agency=sc, code="S-12", path=[[33.4205, -117.6125], [33.4215, -117.6110]]
    )
    Lateral.objects.create(establishment=fse, segment=segment)
    make_establishment(
        sc,
        "FSE-0100",
        name="Harbor Grill",
        address="200 Avenida Del Mar",
        latitude=Decimal("33.4250"),
        longitude=Decimal("-117.6050"),
    )
    sweep_agency(sc, as_of=AS_OF)
    make_user("ines", sc)
    return sc


@pytest.fixture
def errors(page):
    """Script errors of the page, which every test expects to stay empty."""
    seen = []
    page.on("pageerror", lambda error: seen.append(str(error)))
    return seen


def test_a_new_inspector_signs_in_finds_an_establishment_and_opens_it(
    page, errors, live_server, san_clemente, sign_in, screenshot
):
    page.goto(f"{live_server.url}/")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    screenshot(page, "login")
    sign_in(page, "ines")
    expect(page).to_have_url(f"{live_server.url}/inspections/field/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Inspections in the field")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Dashboard").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "What needs doing, City of San Clemente"
    )
    expect(page.locator("#compliance-chart, canvas").first).to_be_visible()
    screenshot(page, "dashboard")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Establishments").click()
    expect(page.get_by_role("heading", name="Establishments")).to_be_visible()
    rows = page.locator("#results tbody tr")
    expect(rows).to_have_count(2)
    page.get_by_label("Search name, address").fill("Pier")
    expect(rows).to_have_count(1)
    expect(page).to_have_url(re.compile(r"/establishments/\?q=Pier&"))
    screenshot(page, "establishments")

    rows.get_by_role("link", name="Pier Taqueria").click()
    expect(page).to_have_url(f"{live_server.url}/establishments/FSE-0042/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Pier Taqueria")
    expect(page.locator("#status")).to_contain_text("Not in compliance as of 2025-06-30")
    screenshot(page, "establishment")
    assert errors == []


PHONE_PAGES = [
    ("/dashboard/?as_of=2025-06-30", "What needs doing", "phone-dashboard"),
    ("/establishments/?as_of=2025-06-30", "Establishments", "phone-establishments"),
    ("/establishments/FSE-0042/?as_of=2025-06-30", "Pier Taqueria", "phone-establishment"),
    ("/inspections/field/?as_of=2025-06-30", "Inspections in the field", "phone-field"),
    ("/cases/?as_of=2025-06-30", "Enforcement cases", "phone-cases"),
    ("/cases/FSE-0042/EC-7/?as_of=2025-06-30", "EC-7", "phone-case"),
    ("/calendar/?as_of=2025-06-30", "", "phone-calendar"),
    ("/establishments/FSE-0042/account/?as_of=2025-06-30", "", "phone-account"),
    ("/billing/fees/", "", "phone-fees"),
    ("/inbox/", "Inbox", "phone-inbox"),
]


def test_every_table_fits_a_phone_or_scrolls_inside_its_card(
    browser, live_server, san_clemente, sign_in, screenshot
):
    from fogkeeper.registry.models import FoodServiceEstablishment
    from tests.web.enforcement import san_clemente_case

    san_clemente_case(FoodServiceEstablishment.objects.get(code="FSE-0042"))
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        sign_in(page, "ines")
        for path, heading, name in PHONE_PAGES:
            page.goto(f"{live_server.url}{path}")
            expect(page.get_by_role("heading", level=1)).to_contain_text(heading)
            assert _page_width(page) <= PHONE["width"], path
            assert _tables_overflowing(page) == [], path
            screenshot(page, name)
    finally:
        context.close()


def test_the_map_shows_the_establishments_and_opens_one(
    page, errors, live_server, san_clemente, sign_in, screenshot
):
    sign_in(page, "ines")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Map").click()
    expect(page.locator("#map")).to_have_attribute("data-loaded", "true")
    expect(page.locator("path.marker-establishment")).to_have_count(2)
    pier = page.locator("path.marker-establishment.code-FSE-0042")
    expect(pier).to_have_class(re.compile(r"\bstatus-non_compliant\b"))
    expect(pier).to_have_attribute("fill", "#a4262c")
    expect(page.locator("#map-summary")).to_have_text(
        "2 establishments, 1 sewer segments, 0 overflows with a location."
    )
    screenshot(page, "map")

    pier.click()
    expect(page).to_have_url(f"{live_server.url}/establishments/FSE-0042/")
    assert errors == []


def _tables_overflowing(page) -> list[str]:
    """The tables wider than the viewport that do not scroll inside a container of their own."""
    return page.evaluate(
        """() => [...document.querySelectorAll("table")].filter(t => {
             const box = t.closest(".usa-table-container--scrollable");
             const right = t.getBoundingClientRect().right;
             return right > window.innerWidth + 1 && !(box &&
               getComputedStyle(box).overflowX !== "visible" &&
               box.getBoundingClientRect().right <= window.innerWidth + 1);
           }).map(t => t.id || t.querySelector("th")?.textContent || "table")"""
    )


def _page_width(page) -> int:
    """How wide the page lays out: wider than the viewport means sideways scrolling."""
    return page.evaluate("document.documentElement.scrollWidth")

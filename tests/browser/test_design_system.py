"""One design system on every page: the U.S. Web Design System's stylesheet and script come
from our own static files (nothing from another host), and a refused form puts its error on
the field, in USWDS's error style, where the person reading the form looks for it."""

import re
from datetime import date
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.registry.models import Hauler, ServiceContract
from fogkeeper.web.models import Membership
from tests.browser.test_accessibility import serious_violations
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.web.people import PASSWORD, make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

FONTS = "/static/web/vendor/uswds/fonts"
USWDS = ("/static/web/vendor/uswds/css/uswds.min.css", "/static/web/vendor/uswds/js/uswds.min.js")


@pytest.fixture
def requests_made(page):
    """Every URL the page asked for, in order."""
    seen = []
    page.on("request", lambda request: seen.append(request.url))
    return seen


@pytest.fixture
def pier(live_server):
    sc, _ = two_agencies()
    fse = make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    make_user("ines", sc)
    return fse


def _from_our_host(urls, live_server) -> list[str]:
    """The URLs asked of another host than ours (should be none)."""
    ours = urlsplit(live_server.url).netloc
    return [
        u for u in urls if urlsplit(u).scheme in ("http", "https") and urlsplit(u).netloc != ours
    ]


def test_the_staff_pages_load_uswds_from_our_static_files(
    page, live_server, pier, sign_in, requests_made, screenshot
):
    sign_in(page, "ines")
    for path, name in (
        ("/", "design-dashboard"),
        ("/establishments/FSE-0042/", "design-establishment"),
    ):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
        expect(page.locator("header.usa-header")).to_be_visible()
        assert page.evaluate("() => window.uswdsPresent") is True
        screenshot(page, name)
    paths = {urlsplit(u).path for u in requests_made}
    assert set(USWDS) <= paths
    assert (
        "/static/web/vendor/uswds/fonts/source-sans-pro/sourcesanspro-regular-webfont.woff2"
        in paths
    )
    assert _from_our_host(requests_made, live_server) == []
    body_font = page.evaluate("() => getComputedStyle(document.body).fontFamily")
    assert body_font.split(",")[0].strip('"') == "Source Sans Pro Web"


def test_a_refused_record_form_shows_the_error_on_its_field(
    page, live_server, pier, sign_in, screenshot
):
    sign_in(page, "ines")
    page.goto(f"{live_server.url}/establishments/FSE-0042/record/service/")
    page.get_by_label("Manifest number").fill("M-901")
    page.get_by_role("button", name="Record").click()

    date_field = page.get_by_label("Date of the pump-out")
    expect(date_field).to_have_attribute("aria-invalid", "true")
    expect(date_field).to_have_class("usa-input usa-input--error")
    error = page.locator("#id_date_error")
    expect(error).to_have_class("usa-error-message errorlist")
    expect(error).to_contain_text("This field is required.")
    group = page.locator(".usa-form-group--error", has=date_field)
    expect(group).to_contain_text("This field is required.")
    assert "id_date_error" in date_field.get_attribute("aria-describedby")
    screenshot(page, "design-record-form-error")
    found = serious_violations(page)
    assert found == [], "\n".join(found)


def test_the_hauler_portal_uses_the_same_design(page, live_server, pier, requests_made, screenshot):
    coastal = Hauler.objects.get(code="FSE-0042-H1")
    ServiceContract.objects.create(hauler=coastal, establishment=pier, since=date(2011, 1, 1))
    hank = make_user("hank")
    Membership.objects.create(user=hank, agency=pier.agency, role="hauler", hauler=coastal)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("hank")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{live_server.url}/portal/hauler/")

    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Your submissions")).to_be_visible()
    expect(page.locator("#customers")).to_have_class(
        re.compile(r"\busa-table usa-table--borderless\b")
    )
    expect(page.get_by_role("button", name="Search")).to_have_class("usa-button")
    assert set(USWDS) <= {urlsplit(u).path for u in requests_made}
    assert _from_our_host(requests_made, live_server) == []
    screenshot(page, "design-portal")
    found = serious_violations(page)
    assert found == [], "\n".join(found)

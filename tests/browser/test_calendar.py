"""A clerk in a real browser: opening the legal calendar from the navigation, seeing what is
overdue on the agency's side, keeping only the hearings, and downloading them as iCalendar."""

import icalendar
import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from tests.browser.test_accessibility import serious_violations
from tests.compliance.records import make_pier_taqueria
from tests.records import make_establishment
from tests.web.enforcement import san_clemente_case
from tests.web.enforcement.test_calendar import AS_OF, harbor_grill_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def san_clemente():
    sc, _ = two_agencies()
    san_clemente_case(make_pier_taqueria(sc))
    harbor_grill_case(make_establishment(sc, "FSE-0100", name="Harbor Grill"))
    sweep_agency(sc, as_of=AS_OF)
    make_user("carla", sc, role="clerk")
    return sc


def test_a_clerk_filters_the_hearings_and_downloads_them_as_icalendar(
    page, live_server, san_clemente, sign_in, screenshot, tmp_path
):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, "carla")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Legal calendar").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Legal calendar")
    page.get_by_label("As of").fill("2025-06-06")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#overdue")).to_contain_text("No hearing on AC-1 was set by 2025-06-02.")
    expect(page.locator("#overdue")).to_contain_text("No decision on ES-1")
    expect(page.get_by_role("heading", name="2025-06-13 (Friday)")).to_be_visible()
    screenshot(page, "calendar")
    assert serious_violations(page) == []

    page.locator("label[for=kind-hearing]").click()  # USWDS draws the box on the label
    expect(page.get_by_label("Hearings")).to_be_checked()
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#result-count")).to_have_text("1 entry")
    expect(page.locator("main table tbody tr")).to_contain_text("Hearing H-1")
    assert "kind=hearing" in page.url

    with page.expect_download() as info:
        page.get_by_role("link", name="Download iCalendar (.ics)").click()
    download = info.value
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    assert download.suggested_filename == "san-clemente-legal-calendar-2025-06-06.ics"
    events = icalendar.Calendar.from_ical(path.read_bytes()).walk("VEVENT")
    assert [str(e["UID"]) for e in events] == [
        "san-clemente-FSE-0042-H-1-hearing-hearing@fogkeeper"
    ]
    expect(page.get_by_role("link", name="Harbor Grill (FSE-0100), case EC-8")).to_have_count(0)
    page.get_by_role("link", name="Pier Taqueria (FSE-0042), case EC-7").click()
    expect(page).to_have_url(f"{live_server.url}/cases/FSE-0042/EC-7/")
    assert errors == []

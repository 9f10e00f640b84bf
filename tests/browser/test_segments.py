"""An inspector opens an overdue blockage-prone segment, records its cleaning with heavy FOG
and sees it back on schedule; the manager then finds it on the segment list for a frequency
review (heavy FOG at its last two cleanings), and on the map, green, its popup linking to its
page. Pages shot at desktop and phone width, axe."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from fogkeeper.registry.models import SewerSegment
from fogkeeper.sewers.models import SegmentCleaning
from tests.browser.test_incidents import DESKTOP, check_page, label, sign_in
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def segment():
    sc, _ = two_agencies()
    found = SewerSegment.objects.create(
        agency=sc,
        code="SEG-12",
        description="Avenida Del Mar main",
        prone_to_blockage=True,
        cleaning_frequency_days=90,
        path=[[33.419, -117.615], [33.421, -117.605]],
    )
    # The live server's today is the clock's: the last cleaning, 100 days before it.
    SegmentCleaning.objects.create(
        agency=sc,
        segment=found,
        cleaned_on=timezone.localdate() - timedelta(days=100),
        crew="Crew 1",
        method="hydro_jet",
        fog_found="heavy",
    )
    make_user("ines", sc)
    make_user("maria", sc, role="manager")
    return found


def test_an_inspector_cleans_an_overdue_segment_and_the_manager_sees_it_for_review(
    page, live_server, screenshot, segment
):
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "ines")
    page.goto(f"{live_server.url}/registry/segments/?show=overdue")
    check_page(page, screenshot, "segments-overdue")
    page.locator("#segments").get_by_role("link", name="SEG-12", exact=True).click()
    expect(page.locator("#segment-state")).to_contain_text("Cleaning overdue")
    check_page(page, screenshot, "segment-overdue")

    page.get_by_role("link", name="Record a cleaning").click()
    page.get_by_label(label("Crew")).fill("Crew 4")
    page.get_by_label(label("Method")).select_option(label="Rodding")
    page.locator("label", has_text="Heavy").click()  # USWDS draws the radio on its label
    expect(page.get_by_label("Heavy")).to_be_checked()
    check_page(page, screenshot, "segment-cleaning-new")
    page.get_by_role("button", name="Record the cleaning").click()

    expect(page.get_by_text("The cleaning of segment SEG-12 is recorded.")).to_be_visible()
    expect(page.locator("#segment-state")).to_have_text("Cleaned on schedule")
    expect(page.locator("#frequency-review")).to_contain_text("Listed for a frequency review")
    expect(page.locator("#cleanings tbody tr")).to_have_count(2)

    page.context.clear_cookies()
    sign_in(page, live_server, "maria")
    page.goto(f"{live_server.url}/registry/segments/")
    page.get_by_label(label("Show")).select_option(label="Listed for a frequency review")
    page.get_by_role("button", name="Filter").click()
    row = page.locator("#segments tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("SEG-12")
    expect(row).to_contain_text("Listed for a frequency review")
    check_page(page, screenshot, "segments-review")

    page.goto(f"{live_server.url}/map/")
    expect(page.locator("#map")).to_have_attribute("data-loaded", "true")
    line = page.locator("path.code-SEG-12")
    expect(line).to_have_class(re.compile(r"\bsegment-current\b"))
    expect(line).to_have_attribute("stroke", "#2e7d32")
    line.click()
    page.locator(".leaflet-popup").get_by_role("link", name="Segment SEG-12").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Sewer segment SEG-12")

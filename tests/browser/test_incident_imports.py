"""The inspector imports the State's CIWQS export from the incidents pages (no broker in the
tests: it runs inline), is told at once when the file is not one, and sees what the import
did; a stalled import is queued again from its page."""

import re
from datetime import timedelta

import pytest
from django.core.files import File
from django.utils import timezone
from playwright.sync_api import expect

from fogkeeper.incidents.models import IncidentImport
from tests.browser.test_incidents import DESKTOP, check_page, sign_in
from tests.imports.test_import_ciwqs import SAMPLE
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sc(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    sc, _ = two_agencies()
    make_establishment(sc, code="FSE-1", address="781 H St.", city="Arcata", opened_on="2005-01-01")
    make_user("ian", sc, role="inspector")
    return sc


def test_the_inspector_imports_the_ciwqs_export_and_sees_what_it_did(
    page, live_server, screenshot, sc, tmp_path
):
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "ian")
    page.goto(f"{live_server.url}/incidents/")
    page.get_by_role("link", name="CIWQS imports").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("CIWQS imports")
    expect(page.locator("#no-imports")).to_be_visible()
    check_page(page, screenshot, "incident-imports-empty")

    wrong = tmp_path / "contacts.csv"
    wrong.write_text("name,address\nPier Diner,1 Main\n")
    page.get_by_label("CIWQS export (CSV)").set_input_files(wrong)
    page.get_by_role("button", name="Upload and import").click()
    expect(page.locator(".usa-error-message")).to_contain_text(
        "is not a CIWQS private lateral spill export"
    )
    check_page(page, screenshot, "incident-imports-refused")

    page.get_by_label("CIWQS export (CSV)").set_input_files(SAMPLE)
    page.get_by_role("button", name="Upload and import").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("CIWQS import of ciwqs-sample.csv")
    expect(page.locator("#import-state")).to_contain_text("Complete: 6 incidents created")
    expect(page.locator("#import-state")).to_contain_text("1 establishment evaluated again")
    expect(page.locator("#import-summary")).to_contain_text("FOG-caused: 3")
    check_page(page, screenshot, "incident-import-complete")

    page.get_by_role("link", name="All CIWQS imports").click()
    row = page.locator("#imports").get_by_role("row", name=re.compile("ciwqs-sample.csv"))
    expect(row).to_contain_text("ian")
    expect(row).to_contain_text("Complete")
    check_page(page, screenshot, "incident-imports")


def test_a_stalled_import_is_queued_again_and_carries_on(page, live_server, screenshot, sc):
    run = IncidentImport(
        agency=sc,
        filename="ciwqs-sample.csv",
        status="running",
        rows_total=9,
        rows_read=3,
        progress_at=timezone.now() - timedelta(hours=1),
    )
    with SAMPLE.open("rb") as f:
        run.file.save("ciwqs-sample.csv", File(f), save=True)
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "ian")
    page.goto(f"{live_server.url}/incidents/imports/{run.pk}/")
    expect(page.locator("#import-state")).to_contain_text("Running: 3 of 9 rows read")
    expect(page.locator("#import-stalled")).to_contain_text("Nothing has moved since")
    check_page(page, screenshot, "incident-import-stalled")

    page.get_by_role("button", name="Queue it again").click()
    expect(page.locator("#import-state")).to_contain_text("Complete: 6 incidents created")

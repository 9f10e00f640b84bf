"""The manager writes to the establishments of a filter of the establishment list (no broker in
the tests: the sending runs in a thread of the server, as on the one-command start, and its
page follows it): a merge field that does not exist is refused in words; the draft shows three
real recipients and the count; sent, the page says what was done for each, and the
establishment's page lists what it was sent."""

import pytest
from django.core import mail
from playwright.sync_api import expect

from fogkeeper.communications.models import Communication
from tests.browser.test_incidents import DESKTOP, check_page, sign_in
from tests.communications.records import program
from tests.web.people import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_manager_writes_to_a_filter_of_the_list_previews_and_sends_it(
    page, live_server, screenshot
):
    sc = program()
    make_user("mia", sc, role="manager")
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "mia")

    page.goto(f"{live_server.url}/establishments/?q=Ocean")
    expect(page.locator("#result-count")).to_have_text("4 establishments")
    page.get_by_role("link", name="Write to these establishments").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Write a letter or email")
    expect(page.get_by_label("Name, address or Discharge Permit number contains")).to_have_value(
        "Ocean"
    )
    page.get_by_label("Subject (the heading of a letter)").fill("Holiday grease: {establishment}")
    page.get_by_label("Text").fill("Dear {operator_name},\nScrape plates before washing.")
    page.get_by_role("button", name="See it for three establishments").click()
    expect(page.locator("#form-refusal")).to_contain_text("Nothing was kept and nothing was sent")
    expect(
        page.get_by_text("The subject names the merge field {establishment}, which does not exist.")
    ).to_be_visible()
    check_page(page, screenshot, "communication-refused")

    page.get_by_label("Subject (the heading of a letter)").fill(
        "Holiday grease: {establishment_name}"
    )
    page.get_by_role("button", name="See it for three establishments").click()
    expect(page.locator("#communication-state")).to_contain_text(
        "Draft: not sent. It would go to 4 establishments today; 1 of them has no email address"
    )
    expect(page.locator("article.preview")).to_have_count(3)
    expect(page.locator("#preview-1")).to_contain_text("Holiday grease: Anchor Diner")
    expect(page.locator("#preview-3")).to_contain_text("No email address: a letter instead.")
    check_page(page, screenshot, "communication-preview")

    page.get_by_role("button", name="Send it to 4 establishments").click()
    expect(page.locator("#communication-state")).to_contain_text(
        "Sent to 4 establishments: 3 sent as asked; 1 by letter only", timeout=60_000
    )
    expect(page.locator("#communication-recipients tbody tr")).to_have_count(4)
    check_page(page, screenshot, "communication-sent")
    assert sorted(m.to[0] for m in mail.outbox) == [
        "anchor@example.org",
        "bay@example.org",
        "dune@example.org",
    ]
    assert Communication.objects.get().status == "complete"

    page.get_by_role("link", name="Cove Cafe (FSE-3)").click()
    history = page.locator("#communications-sent")
    expect(history).to_contain_text("Holiday grease: Cove Cafe")
    expect(history).to_contain_text("Letter for the post (no email address)")
    check_page(page, screenshot, "communication-establishment")

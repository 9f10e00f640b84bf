"""Plan review in a real browser: an inspector records plans submitted for a new interceptor
with their PDF (a web page passed off as plans is refused first), downloads them from the
establishment's page, and approves them from the decision's form, where the plans are one
click away. Each page is shot at desktop and phone width and checked with axe-core."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import serious_violations
from tests.compliance.records import make_pier_taqueria
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

PDF = b"%PDF-1.4\n% plans of a 1,000-gallon interceptor\n%%EOF\n"


@pytest.fixture
def world(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    sc, _town = two_agencies()
    make_pier_taqueria(sc)
    make_user("ivan", sc, role="inspector")


def label(text: str):
    return re.compile(rf"^{re.escape(text)}:?$")


def shoot(page, screenshot, name: str) -> None:
    assert serious_violations(page) == [], name
    screenshot(page, name)
    page.set_viewport_size(PHONE)
    screenshot(page, f"{name}-phone")
    page.set_viewport_size({"width": 1280, "height": 900})


def test_an_inspector_records_plans_with_their_pdf_downloads_them_and_approves_them(
    page, live_server, world, sign_in, screenshot, tmp_path
):
    sign_in(page, "ivan")
    page.goto(f"{live_server.url}/establishments/FSE-0042/")
    page.get_by_role("link", name="Record plans submitted").click()
    page.get_by_label(label("What the plans are for")).fill("New 1,000-gallon interceptor")
    page.get_by_label(label("Plans (optional)")).set_input_files(
        {"name": "plans.pdf", "mimeType": "application/pdf", "buffer": b"<html>not plans"}
    )
    page.get_by_role("button", name="Record").click()
    expect(page.locator("body")).to_contain_text(
        "The plans must be a PDF, or a JPEG or PNG photo or scan."
    )
    shoot(page, screenshot, "plan-review-refused")

    page.get_by_label(label("Plans (optional)")).set_input_files(
        {"name": "plans.pdf", "mimeType": "application/pdf", "buffer": PDF}
    )
    page.get_by_role("button", name="Record").click()
    expect(page.locator("body")).to_contain_text("The plans were recorded as submitted.")
    reviews = page.locator("#plan-reviews")
    expect(reviews).to_contain_text("New 1,000-gallon interceptor")
    with page.expect_download() as info:
        reviews.get_by_role("link", name=re.compile("^Download")).click()
    assert re.fullmatch(r"FSE-0042-plans-\d{4}-\d{2}-\d{2}\.pdf", info.value.suggested_filename)
    path = tmp_path / "downloaded.pdf"
    info.value.save_as(path)
    assert path.read_bytes() == PDF

    reviews.get_by_role("link", name="Approve or return").click()
    expect(page.locator("#plans-file")).to_contain_text("Download the plans submitted (")
    shoot(page, screenshot, "plan-review-decide")
    page.locator("label", has_text="Approved").click()  # USWDS draws the radio on its label
    page.get_by_role("button", name="Record").click()
    expect(page.locator("body")).to_contain_text("The plans were approved.")
    expect(page.locator("#plan-reviews")).to_contain_text("Approved")

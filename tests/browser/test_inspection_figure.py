"""The inspection form in a phone's browser: the accumulation limit in words as the inspector
types (the share of the depth against the pack's limit, a depth the device cannot hold, a
negative one), and one tap to mark an item."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.compliance.records import make_pier_taqueria
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_inspector_sees_the_accumulation_figure_as_they_type(
    browser, live_server, sign_in, screenshot
):
    sc, _ = two_agencies()
    make_pier_taqueria(sc)
    make_user("ines", sc)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        sign_in(page, "ines")
        page.goto(f"{live_server.url}/establishments/FSE-0042/record/inspection/")
        page.get_by_label("FOG depth in GI-1 (in)").fill("6")
        page.get_by_label("Solids depth in GI-1 (in)").fill("7")
        figure = page.locator("fieldset.measure .figure")
        expect(figure).to_have_text("13 of 48 inches: 27.1%, over the 25% limit")
        page.get_by_label("FOG depth in GI-1 (in)").fill("3")
        page.get_by_label("Solids depth in GI-1 (in)").fill("5")
        expect(figure).to_have_text("8 of 48 inches: 16.7%, within the 25% limit")
        page.get_by_label("FOG depth in GI-1 (in)").fill("10")
        page.get_by_label("Solids depth in GI-1 (in)").fill("60")
        expect(figure).to_have_text(
            "70 inches is more than the 48-inch depth of GI-1: check the readings."
        )
        page.get_by_label("FOG depth in GI-1 (in)").fill("-2")
        expect(figure).to_have_text("FOG depth in GI-1 cannot be negative: give 0 or more.")
        page.locator("#check-bmp\\.spill_kit").get_by_text("Not compliant").tap()
        expect(page.locator("#check-bmp\\.spill_kit input[value=no]")).to_be_checked()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, "phone-inspection")
    finally:
        context.close()

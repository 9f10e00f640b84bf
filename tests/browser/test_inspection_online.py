"""Recording an inspection online, end to end, on a desktop and on a phone: the number and
today's date come filled in, the checklist is in the pack's order, the operator signs in the
signature box (drawn with the pointer), and saving lands on the inspection's own page with a
link to its establishment and to the receipt, whose PDF carries the signature."""

import re

import pytest
from playwright.sync_api import expect

from fogkeeper.inspections.models import Inspection
from tests.browser.conftest import PHONE, draw_signature
from tests.browser.test_accessibility import serious_violations
from tests.compliance.records import make_pier_taqueria
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}


def sign(page) -> None:
    """The operator signs with the pointer (a mouse, as a finger's taps arrive as pointer
    events too)."""
    draw_signature(page, "#signature-pad")


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_an_inspector_records_an_inspection_online_signed_and_lands_on_it(
    browser, live_server, sign_in, screenshot, screen
):
    sc, _ = two_agencies()
    make_pier_taqueria(sc)
    make_user("ines", sc)
    today = sc.today()
    phone = screen == "phone"
    context = browser.new_context(
        viewport=PHONE if phone else DESKTOP, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    try:
        sign_in(page, "ines")
        page.goto(f"{live_server.url}/establishments/FSE-0042/record/inspection/")
        expect(page.get_by_label("Inspection number")).to_have_value(f"FSE-0042-{today:%Y%m%d}")
        expect(page.get_by_label("Date of the inspection")).to_have_value(today.isoformat())
        asked = page.locator("fieldset.check").evaluate_all("boxes => boxes.map(b => b.id)")
        assert asked == [f"check-{item}" for item in sc.get_pack().checklist]  # the pack's order
        page.locator("#check-bmp\\.spill_kit").get_by_text("Not compliant").click()
        page.get_by_label("FOG depth in GI-1 (in)").fill("6")
        page.get_by_label("Solids depth in GI-1 (in)").fill("7")
        expect(page.locator("fieldset.measure .figure").first).to_have_text(
            "13 of 48 inches: 27.1%, over the 25% limit"
        )
        page.get_by_label("Name of who signs").fill("Ana Ruiz")
        sign(page)
        found = serious_violations(page)
        assert found == [], "\n".join(found)
        if phone:
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, f"{screen}-inspection-online-form")

        page.get_by_role("button", name="Record the inspection").click()
        page.wait_for_url(re.compile(r".*/inspections/\d+/$"))
        inspection = Inspection.objects.get(code=f"FSE-0042-{today:%Y%m%d}")
        assert page.url == f"{live_server.url}/inspections/{inspection.pk}/"
        expect(page.get_by_role("status")).to_contain_text(
            f"Inspection FSE-0042-{today:%Y%m%d} of Pier Taqueria recorded"
        )
        expect(page.get_by_role("link", name="Pier Taqueria (FSE-0042)")).to_be_visible()
        receipt = page.get_by_role("link", name=re.compile("Receipt of inspection .* \\(PDF\\)"))
        expect(receipt).to_be_visible()
        expect(page.get_by_role("img", name="Signature of Ana Ruiz")).to_be_visible()
        assert inspection.signed_by == "Ana Ruiz" and inspection.signature
        pdf = page.request.get(live_server.url + receipt.get_attribute("href"))
        assert pdf.headers["content-type"] == "application/pdf" and pdf.body()[:5] == b"%PDF-"
        found = serious_violations(page)
        assert found == [], "\n".join(found)
        screenshot(page, f"{screen}-inspection-online-recorded")
    finally:
        context.close()

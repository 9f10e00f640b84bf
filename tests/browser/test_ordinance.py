"""The city attorney (an auditor's account) reviews what fogkeeper enforces: opens the
ordinance from the Reports menu, reads the rules with their sections and the parameters with
the days they took effect, looks for the pump-out rules, and follows the open findings of one
to the establishments that have them."""

from __future__ import annotations

import re
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from tests.browser.test_incidents import DESKTOP, check_page, sign_in
from tests.records import make_device, make_establishment, make_permit
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

NOON = datetime(2026, 6, 30, 12, tzinfo=ZoneInfo("America/Los_Angeles"))


def test_the_city_attorney_reviews_the_ordinance_and_follows_a_rule_to_its_findings(
    page, live_server, screenshot
):
    with time_machine.travel(NOON):
        sc, _ = two_agencies()
        fse = make_establishment(sc, code="FSE-7", name="Harbor Grill")
        make_permit(fse, service_frequency_days=90)
        make_device(fse, code="GI-1", installed_on="2024-01-02")  # never pumped out
        sweep_agency(sc, as_of=date(2026, 6, 30))
        make_user("ada", sc, role="auditor")
        page.set_viewport_size(DESKTOP)
        sign_in(page, live_server, "ada")

        page.wait_for_load_state("load")  # the menu opens once the design system's script ran
        page.get_by_role("button", name="Reports").click()
        page.get_by_role("link", name="The ordinance enforced").click()
        expect(page.get_by_role("heading", level=1)).to_have_text(
            "The ordinance fogkeeper enforces"
        )
        expect(page.locator("#ordinance-source")).to_contain_text("ch. 13.30")
        expect(page.locator("#last-sweep")).to_contain_text("as of 30 June 2026")
        devices = page.locator("#rules-gcd")
        expect(devices.locator("#rule-gcdservice_overdue")).to_contain_text("13.30.050(H)(1)(b)")
        expect(page.locator("#parameter-gcdaccumulation_limit")).to_contain_text("in force")

        page.get_by_label("Words to look for in rules, citations and parameters").fill("pump-out")
        page.get_by_role("button", name="Look for").click()
        expect(page.locator("#matches")).to_contain_text("mention “pump-out”")
        expect(page.locator("#rules-training")).to_have_count(0)
        overdue = page.locator("#rule-gcdservice_overdue")
        expect(overdue).to_contain_text("Pump-out overdue")
        check_page(page, screenshot, "ordinance")

        overdue.get_by_role("link", name="1 at 1 establishment").click()
        expect(page).to_have_url(re.compile(r"/establishments/\?rule=gcd.service_overdue"))
        expect(page.get_by_role("link", name=re.compile("Harbor Grill"))).to_be_visible()

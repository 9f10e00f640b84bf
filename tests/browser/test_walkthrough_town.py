"""The Town's enforcement only through the pages, each step by the role that takes it: the
hearing officer's decision, the appeal to the Town Council, a suspension notice whose hearing
is continued, the decision after it, the penalty order, its invoice delinquent on the 46th
day after notice (10.02.360(A)), and its payment."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import EnforcementAction
from tests.browser.walkthrough import Walk
from tests.compliance.records import make_pier_taqueria
from tests.records import d
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)
CASE = "/cases/T-0042/EC-1/"


@pytest.fixture
def walk(page, live_server, sign_in, screenshot):
    _, town = two_agencies()
    make_pier_taqueria(town, code="T-0042")
    sweep_agency(town, as_of=d("2025-06-06"))
    make_user("tom", town, role="manager")
    make_user("tia", town, role="clerk")
    return Walk(page, live_server, sign_in, screenshot, "walk-town")


def test_the_town_from_a_hearing_decision_to_the_payment_of_its_penalty(walk):
    _case_and_decision(walk)
    _suspension_with_a_continuance(walk)
    _penalty_invoice_and_payment(walk)
    assert EnforcementAction.objects.filter(type="hearing").count() == 2


def _case_and_decision(walk):
    walk.as_("tom")
    walk.go("/establishments/T-0042/?as_of=2025-06-06")
    walk.page.get_by_role("link", name="Start a case from these findings").click()
    walk.page.locator("label.usa-checkbox__label").first.click()
    walk.fill({"Opened on": "2025-06-06"})
    walk.page.get_by_role("button", name="Open the case").click()
    expect(walk.page).to_have_url(f"{walk.url}{CASE}")
    walk.as_("tia")
    walk.go(f"{CASE}?as_of=2025-06-06")
    walk.step("Decision of the hearing officer")
    walk.fill({"Action number": "HD-1", "Noticed on": "2025-06-06",
               "Decision": "The FSE shall clean its grease trap every 30 days.",
               "Findings": "The trap was not cleaned within its frequency.",
               "Delivered by": "personal"})  # fmt: skip
    walk.submit("Issue")
    walk.done("HD-1 taken")
    text = walk.letter("HD-1")
    assert "The FSE shall clean its grease trap every 30 days." in text
    assert "Town Council" in text and "10.02.330(C)" in text
    walk.shot("hearing-decision")
    walk.go(f"{CASE}?as_of=2025-06-10")
    walk.step("Appeal HD-1 to the Town Council")
    walk.fill({"Appeal number": "AP-1", "Appeal filed on": "2025-06-10"})
    walk.submit()
    walk.done("Appeal AP-1 of HD-1 to the Town Council filed")


def _suspension_with_a_continuance(walk):
    walk.as_("tom")
    walk.go(f"{CASE}?as_of=2025-06-12")
    walk.step("Notice of suspension")
    walk.fill({"Action number": "SN-1", "Mailed on": "2025-06-12",
               "Reasons": "The FSE did not clean its grease trap as decided in HD-1.",
               "Delivered by": "personal"})  # fmt: skip
    walk.submit("Issue")
    walk.done("SN-1 taken")
    walk.as_("tia")
    walk.go(f"{CASE}?as_of=2025-06-13")
    walk.step("Schedule the hearing")
    expect(walk.page.locator(".usa-intro")).to_contain_text("not before 2025-06-27")
    walk.fill({"Hearing number": "H-1", "Date of the hearing": "2025-07-01",
               "Place of the hearing": "Town Hall, Council Chamber",
               "Notice of the hearing given on": "2025-06-13",
               "Delivered by": "personal"})  # fmt: skip
    walk.submit()
    walk.done("Hearing H-1 set for 2025-07-01")
    walk.step("Continue the hearing H-1")
    walk.fill({"Hearing number": "H-2", "Date of the hearing": "2025-09-15",
               "Notice of the hearing given on": "2025-06-20",
               "Delivered by": "personal"})  # fmt: skip
    walk.submit()
    walk.refused("10.02.260(B)")  # beyond 60 days in all from the first hearing
    walk.shot("continuance-refused")
    walk.fill({"Date of the hearing": "2025-07-15"})
    walk.submit()
    walk.done("Continuance H-2 set for 2025-07-15")
    text = walk.letter("H-2")
    assert "July 15, 2025" in text and "10.02.260(B)" in text, text
    walk.step("Record that the hearing H-2 concluded")
    walk.fill({"The hearing concluded on": "2025-07-15"})
    walk.submit()
    walk.done("Hearing H-2 concluded")


def _penalty_invoice_and_payment(walk):
    walk.go(f"{CASE}?as_of=2025-07-20")
    walk.step("Decision of the hearing officer")
    walk.fill({"Action number": "HD-2", "Noticed on": "2025-07-20",
               "Decision": "The FOG Permit is suspended for 15 days.",
               "Findings": "The trap was still not cleaned at the hearing.",
               "Delivered by": "personal"})  # fmt: skip
    walk.submit("Issue")
    walk.done("HD-2 taken")
    walk.step("Order imposing administrative civil penalties")
    walk.fill({"Action number": "PO-1", "Issued by": "hearing_officer",
               "Issued on": "2025-07-20", "Served on": "2025-07-20", "Amount": "2000",
               "Class": "records", "Number of days": "1", "Delivered by": "personal"})  # fmt: skip
    walk.submit("Issue")
    walk.done("PO-1 taken")
    text = walk.letter("PO-1")
    assert "$2,000" in text and "10.02.330(I)" in text, text  # the amount and the lien
    walk.step("Invoice the penalty order PO-1")
    walk.page.get_by_label("Date of notice (mailed)").fill("2025-07-21")
    walk.page.get_by_role("button", name="Issue the invoice").click()
    expect(walk.page.get_by_role("heading", level=1)).to_contain_text("Invoice")
    walk.go("/establishments/T-0042/account/?as_of=2025-09-04")
    expect(walk.page.locator("main")).not_to_contain_text("delinquent")
    walk.go("/establishments/T-0042/account/?as_of=2025-09-05")
    expect(walk.page.locator("main")).to_contain_text("delinquent")
    walk.shot("invoice-delinquent")
    walk.page.get_by_role("link", name="INV-1").first.click()
    walk.page.get_by_label("Paid on").fill("2025-09-10")
    walk.page.get_by_label("Amount paid").fill("2000.00")
    walk.page.get_by_role("button", name="Record the payment").click()
    expect(walk.page.locator("main")).to_contain_text("$0.00 of $2,000.00")
    walk.shot("paid")

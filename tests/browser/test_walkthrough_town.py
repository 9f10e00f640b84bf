"""The Town's enforcement only through the pages, each step by the role that takes it, in the
order 10.02.330 sets (RULES.md 12.1): the hearing officer's decision refused as the first act,
the administrative complaint, its hearing, the decision and the penalty order after it, the
appeal to the Town Council and the Council's order that replaces the order appealed (12.8),
its invoice delinquent on the 46th day after notice (10.02.360(A)), the lien and the payment;
and a suspension notice whose hearing is continued."""

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


def test_the_town_from_a_complaint_to_the_lien_and_the_payment_of_its_penalty(walk):
    _case_and_refused_decision(walk)
    _complaint_hearing_decision_and_order(walk)
    _appeal_and_council_order(walk)
    _invoice_lien_and_payment(walk)
    _suspension_with_a_continuance(walk)
    assert EnforcementAction.objects.filter(type="hearing").count() == 3


def _case_and_refused_decision(walk):
    walk.as_("tom")
    walk.go("/establishments/T-0042/?as_of=2025-06-06")
    walk.page.get_by_role("link", name="Start a case from these findings").click()
    walk.page.locator("label.usa-checkbox__label").first.click()
    walk.fill({"Opened on": "2025-06-06"})
    walk.page.get_by_role("button", name="Open the case").click()
    expect(walk.page).to_have_url(f"{walk.url}{CASE}")
    walk.as_("tia")
    walk.go(f"{CASE}?as_of=2025-06-06")
    steps = walk.page.locator("#next-steps")
    expect(steps.get_by_role("link", name="Decision of the hearing officer")).to_have_count(0)
    expect(walk.page.locator("#waiting-steps")).to_contain_text("10.02.330(C)")
    walk.go(f"{CASE}act/hearing_decision/?as_of=2025-06-06")  # asked for by hand
    walk.fill(
        {
            "Action number": "HD-1",
            "Noticed on": "2025-06-06",
            "Decision": "The FSE shall clean its grease trap every 30 days.",
            "Delivered by": "personal",
        }
    )
    before = EnforcementAction.objects.count()
    walk.submit("Issue")
    walk.refused("10.02.260(B); 10.02.270(C); 10.02.330(C)")
    walk.refused("needs a notice or complaint whose hearing was held or waived")
    assert EnforcementAction.objects.count() == before
    walk.shot("decision-refused-as-the-first-act")


def _complaint_hearing_decision_and_order(walk):
    walk.as_("tom")
    walk.go(f"{CASE}?as_of=2025-06-06")
    walk.step("Administrative complaint")
    walk.fill(
        {
            "Action number": "AC-1",
            "Served on": "2025-06-06",
            "Charges (the acts or failures to act, and the provisions of law)": (
                "GT-2 was not cleaned as 10.02.130 requires."
            ),
            "Delivered by": "personal",
        }
    )
    walk.submit("Issue")
    walk.done("AC-1 taken")
    walk.as_("tia")
    walk.go(f"{CASE}?as_of=2025-06-06")
    walk.step("Schedule the hearing on the Administrative complaint (AC-1)")
    walk.fill(
        {
            "Hearing number": "H-1",
            "Date of the hearing": "2025-06-20",
            "Place of the hearing": "Town Hall, Council Chamber",
            "Notice of the hearing given on": "2025-06-06",
            "Delivered by": "personal",
        }
    )
    walk.submit()
    walk.done("Hearing H-1 set for 2025-06-20")
    walk.go(f"{CASE}?as_of=2025-06-20")
    walk.step("Record that the hearing H-1 concluded")
    walk.fill({"The hearing concluded on": "2025-06-20"})
    walk.submit()
    walk.done("Hearing H-1 concluded")
    walk.go(f"{CASE}?as_of=2025-06-23")
    walk.step("Decision of the hearing officer on AC-1")
    walk.fill(
        {
            "Action number": "HD-1",
            "Noticed on": "2025-06-23",
            "Orders": "no_action",
            "Decision": "The FSE shall clean its grease trap every 30 days.",
            "Findings": "The trap was not cleaned within its frequency.",
            "Delivered by": "personal",
        }
    )
    walk.submit("Issue")
    walk.done("HD-1 taken")
    text = walk.letter("HD-1")
    assert "The FSE shall clean its grease trap every 30 days." in text
    assert "Town Council" in text and "10.02.330(C)" in text
    walk.shot("hearing-decision")
    walk.step("Order imposing administrative civil penalties by the Hearing Officer on AC-1")
    walk.fill(
        {
            "Action number": "PO-1",
            "Issued by": "hearing_officer",
            "Issued on": "2025-06-23",
            "Served on": "2025-06-23",
            "Amount": "4000",
            "Class": "records",
            "Number of days": "2",
            "Delivered by": "personal",
        }
    )
    walk.submit("Issue")
    walk.done("PO-1 taken")


def _appeal_and_council_order(walk):
    walk.go(f"{CASE}?as_of=2025-06-30")
    walk.step("Appeal PO-1 to the Town Council")
    walk.fill(
        {
            "Appeal number": "AP-1",
            "Appeal filed on": "2025-06-30",
            "Appealed by": "Pier Foods LLC",
            "Grounds of the appeal": "The trap was cleaned in time.",
        }
    )
    walk.submit()
    walk.done("Appeal AP-1 of PO-1 to the Town Council filed")
    walk.go(f"{CASE}?as_of=2025-07-20")
    walk.step("Order imposing administrative civil penalties by the Town Council on AP-1")
    walk.fill(
        {
            "Action number": "PO-2",
            "Issued by": "council",
            "Issued on": "2025-07-20",
            "Served on": "2025-07-20",
            "Amount": "2000",
            "Class": "records",
            "Number of days": "1",
            "Delivered by": "personal",
        }
    )
    walk.submit("Issue")
    walk.done("PO-2 taken")
    text = walk.letter("PO-2")
    assert "$2,000" in text and "10.02.330(I)" in text, text  # the amount and the lien
    expect(walk.page.locator("#next-steps")).not_to_contain_text("Invoice the penalty order PO-1")


def _invoice_lien_and_payment(walk):
    walk.as_("tom")
    walk.go(f"{CASE}?as_of=2025-07-21")
    walk.step("Invoice the penalty order PO-2")
    walk.page.get_by_label("Date of notice (mailed)").fill("2025-07-21")
    walk.page.get_by_role("button", name="Issue the invoice").click()
    expect(walk.page.get_by_role("heading", level=1)).to_contain_text("Invoice")
    walk.go("/establishments/T-0042/account/?as_of=2025-09-04")
    expect(walk.page.locator("main")).not_to_contain_text("delinquent")
    walk.go("/establishments/T-0042/account/?as_of=2025-09-05")
    expect(walk.page.locator("main")).to_contain_text("delinquent")
    walk.shot("invoice-delinquent")
    walk.go("/establishments/T-0042/liens/new/?as_of=2025-10-20")
    expect(walk.page.locator("main")).to_contain_text("2025-10-18")  # payment due + 60 days
    walk.page.get_by_label("Penalty order").select_option("PO-2")
    walk.page.get_by_label("Recorded on").fill("2025-10-20")
    walk.page.get_by_label("Amount of the lien").fill("2000.00")
    walk.page.get_by_label("Recorded document number").fill("2025-T-0042")
    walk.page.get_by_role("button", name="Record the lien").click()
    expect(walk.page.locator(".usa-alert--success, .messages").first).to_contain_text(
        "Lien 2025-T-0042 for $2,000.00 (PO-2)"
    )
    walk.go("/establishments/T-0042/account/?as_of=2025-10-25")
    walk.page.get_by_role("link", name="INV-1").first.click()
    walk.page.get_by_label("Paid on").fill("2025-10-25")
    walk.page.get_by_label("Amount paid").fill("2000.00")
    walk.page.get_by_role("button", name="Record the payment").click()
    expect(walk.page.locator("main")).to_contain_text("$0.00 of $2,000.00")
    walk.shot("paid")


def _suspension_with_a_continuance(walk):
    walk.go(f"{CASE}?as_of=2025-10-27")
    walk.step("Notice of suspension")
    walk.fill(
        {
            "Action number": "SN-1",
            "Mailed on": "2025-10-27",
            "Reasons": "The FSE did not clean its grease trap as decided in HD-1.",
            "Delivered by": "personal",
        }
    )
    walk.submit("Issue")
    walk.done("SN-1 taken")
    walk.as_("tia")
    walk.go(f"{CASE}?as_of=2025-10-28")
    walk.step("Schedule the hearing on the Notice of suspension")
    expect(walk.page.locator(".usa-intro")).to_contain_text("not before 2025-11-11")
    walk.fill(
        {
            "Hearing number": "H-2",
            "Date of the hearing": "2025-11-17",
            "Place of the hearing": "Town Hall, Council Chamber",
            "Notice of the hearing given on": "2025-10-28",
            "Delivered by": "personal",
        }
    )
    walk.submit()
    walk.done("Hearing H-2 set for 2025-11-17")
    walk.step("Continue the hearing H-2")
    walk.fill(
        {
            "Hearing number": "H-3",
            "Date of the hearing": "2026-01-20",
            "Notice of the hearing given on": "2025-11-10",
            "Delivered by": "personal",
        }
    )
    walk.submit()
    walk.refused("10.02.260(B)")  # beyond 60 days in all from the first hearing
    walk.shot("continuance-refused")
    walk.fill({"Date of the hearing": "2025-12-01"})
    walk.submit()
    walk.done("Continuance H-3 set for 2025-12-01")
    text = walk.letter("H-3")
    assert "December 1, 2025" in text and "10.02.260(B)" in text, text
    walk.step("Record that the hearing H-3 concluded")
    walk.fill({"The hearing concluded on": "2025-12-01"})
    walk.submit()
    walk.done("Hearing H-3 concluded")

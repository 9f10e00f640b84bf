"""San Clemente's enforcement from the finding to the lien, only through the pages, each step
by the role that takes it: the inspector's Notice of Non-Compliance for an overdue pump-out,
the $600 a day fine after the correction date, the Utilities Manager's compliance schedule and
its missed milestone, the suspension notice and its hearing inside the window, the decision,
the appeal to the City Council and its final decision; then the penalty, refused before its
complaint is heard, the administrative complaint, its hearing, the Manager's order, the appeal
to the Council and the Council's order that replaces it, its invoice, a partial payment and
the lien (RULES.md 12.1, 12.8)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import EnforcementAction, Letter
from tests.browser.walkthrough import Walk
from tests.compliance.records import make_pier_taqueria
from tests.records import d
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)
CASE = "/cases/FSE-0042/EC-1/"


@pytest.fixture
def walk(page, live_server, sign_in, screenshot):
    sc, _ = two_agencies()
    make_pier_taqueria(sc)
    sweep_agency(sc, as_of=d("2025-06-06"))
    make_user("ines", sc, role="inspector")
    make_user("maria", sc, role="manager")
    make_user("clara", sc, role="clerk")
    return Walk(page, live_server, sign_in, screenshot, "walk-sc")


def test_san_clemente_from_an_overdue_pump_out_to_the_lien(walk):
    page = walk.page
    _notice(walk)
    _fine_and_schedule(walk)
    _suspension_and_hearing(walk)
    _decision_appeal_and_final_decision(walk)
    _complaint_hearing_and_order(walk)
    _council_order_invoice_payment_and_lien(walk)
    assert (
        Letter.objects.count()
        == EnforcementAction.objects.filter(
            type__in=[
                "notice_of_noncompliance",
                "compliance_schedule",
                "suspension_notice",
                "hearing",
                "manager_decision",
                "final_decision",
                "administrative_complaint",
                "penalty_order",
            ]
        ).count()
    )
    expect(page.locator("#actions > li")).to_have_count(12)


def _notice(walk):
    walk.as_("ines")
    walk.go("/establishments/FSE-0042/?as_of=2025-06-06")
    walk.page.get_by_role("link", name="Start a case from these findings").click()
    walk.page.locator("label", has_text="Pump-out overdue: GT-2").click()
    walk.fill({"Opened on": "2025-06-06"})
    walk.page.get_by_role("button", name="Open the case").click()
    expect(walk.page).to_have_url(f"{walk.url}{CASE}")
    walk.go(f"{CASE}?as_of=2025-06-06")
    walk.step("Notice of Non-Compliance")
    expect(walk.page.get_by_label(re.compile("^Correct by:?$"))).to_have_value("2025-07-06")
    walk.fill(
        {
            "Delivered on": "2025-06-06",
            "Correct by": "2025-06-20",
            "Corrective action required": "Have the grease trap GT-2 pumped out by a "
            "licensed hauler and send the manifest.",
            "Delivered by": "mail",
            "Certified mail number": "7019 0700 0000 1111 0001",
        }
    )
    walk.shot("notice-form")
    walk.submit("Issue")
    walk.done("Notice of Non-Compliance NNC-1 taken")
    text = walk.letter("NNC-1")
    for words in ("GT-2", "13.30.080(E)", "June 20, 2025", "$600"):
        assert words in text, (words, text)
    walk.shot("notice-issued")


def _fine_and_schedule(walk):
    walk.as_("maria")
    walk.go(f"{CASE}?as_of=2025-07-01")
    accruals = walk.page.locator("#accruals")
    expect(accruals).to_contain_text("2025-06-21")  # the day after the correction date
    expect(accruals).to_contain_text("$600.00")
    expect(accruals).to_contain_text("$6,600.00")  # 11 days to July 1
    walk.shot("fine-accruing")
    walk.step("Compliance schedule")
    walk.fill(
        {
            "Action number": "CS-1",
            "Entered on": "2025-07-01",
            "Milestones": "M-1 2025-07-15 Pump out GT-2",
            "Delivered by": "personal",
        }
    )
    walk.submit("Issue")
    walk.done("CS-1 taken")
    walk.go("/establishments/FSE-0042/?as_of=2025-07-20")
    walk.go(f"{CASE}?as_of=2025-07-20")
    expect(walk.page.locator("#next-steps")).to_contain_text("Record milestone M-1 of CS-1 met")


def _suspension_and_hearing(walk):
    walk.step("Notice of suspension")
    walk.fill(
        {
            "Action number": "SN-1",
            "Mailed on": "2025-07-21",
            "Reasons": "Failure to comply with the Notice of Non-Compliance NNC-1 and the "
            "compliance schedule CS-1.",
            "Delivered by": "personal",
        }
    )
    walk.submit("Issue")
    walk.done("SN-1 taken")
    text = walk.letter("SN-1")
    assert "13.30.080(G)" in text and "NNC-1" in text, text  # its section and its reasons
    walk.step("Schedule the hearing")
    expect(walk.page.locator(".usa-intro")).to_contain_text("not before 2025-07-31")
    walk.fill(
        {
            "Hearing number": "H-1",
            "Date of the hearing": "2025-07-25",
            "Place of the hearing": "City Hall, 910 Calle Negocio",
            "Notice of the hearing given on": "2025-07-21",
            "Delivered by": "personal",
        }
    )
    before = EnforcementAction.objects.count()
    walk.submit()
    walk.refused("the hearing may not be held before 2025-07-31")
    assert EnforcementAction.objects.count() == before
    walk.shot("hearing-refused")
    walk.fill({"Date of the hearing": "2025-08-04"})
    walk.submit()
    walk.done("Hearing H-1 set for 2025-08-04")
    text = walk.letter("H-1")
    assert "August 4, 2025" in text and "City Hall, 910 Calle Negocio" in text, text
    walk.step("Record that the hearing H-1 concluded")
    walk.fill({"The hearing concluded on": "2025-08-04"})
    walk.submit()
    walk.done("Hearing H-1 concluded")


def _decision_appeal_and_final_decision(walk):
    walk.go(f"{CASE}?as_of=2025-08-06")
    walk.step("Decision of the Utilities Manager on H-1")
    walk.fill(
        {
            "Action number": "MD-1",
            "Delivered on": "2025-08-06",
            "Orders": "suspension",
            "Suspended from": "2025-08-11",
            "Suspended until": "2025-09-09",
            "Decision": "The Discharge Permit is suspended for 30 days.",
            "Findings": "GT-2 was not pumped out by the correction date.",
            "Delivered by": "personal",
        }
    )
    walk.submit("Issue")
    walk.done("MD-1 taken")
    text = walk.letter("MD-1")
    assert "The Discharge Permit is suspended for 30 days." in text
    assert "City Council" in text and "August 18, 2025" in text, text  # within 10 days
    walk.as_("clara")
    walk.go(f"{CASE}?as_of=2025-08-10")
    walk.step("Appeal MD-1 to the City Council")
    walk.fill(
        {
            "Appeal number": "AP-1",
            "Appeal filed on": "2025-08-10",
            "Appealed by": "Pier Foods LLC",
            "Grounds of the appeal": "The trap was pumped out before the hearing.",
        }
    )
    walk.submit()
    walk.done("Appeal AP-1 of MD-1 to the City Council filed")
    walk.step("Final administrative decision on AP-1")
    walk.fill(
        {
            "Action number": "FD-1",
            "Final on": "2025-09-02",
            "Decision": "The City Council upholds the suspension.",
            "Findings": "The record supports the Utilities Manager's findings.",
            "Delivered by": "personal",
        }
    )
    walk.submit("Issue")
    walk.done("FD-1 taken")
    text = walk.letter("FD-1")
    assert "1094.6" in text and "The City Council upholds the suspension." in text
    walk.shot("final-decision")


def _complaint_hearing_and_order(walk):
    walk.as_("maria")
    walk.go(f"{CASE}?as_of=2025-09-05")
    waiting = walk.page.locator("#waiting-steps")
    expect(waiting).to_contain_text("Order imposing administrative civil penalties")
    expect(waiting).to_contain_text("13.30.080(I)(4)(a)-(c)")
    walk.go(f"{CASE}act/penalty_order/?as_of=2025-09-05")  # not offered: asked for by hand
    walk.fill(
        {
            "Action number": "PO-1",
            "Issued by": "manager",
            "Issued on": "2025-09-05",
            "Served on": "2025-09-05",
            "Amount": "4000",
            "Class": "records",
            "Number of days": "2",
            "Delivered by": "personal",
        }
    )
    before = EnforcementAction.objects.count()
    walk.submit("Issue")
    walk.refused("13.30.080(I)(4)(a)-(c)")
    assert EnforcementAction.objects.count() == before
    walk.shot("penalty-refused-before-its-hearing")
    walk.go(f"{CASE}?as_of=2025-09-05")
    walk.step("Administrative complaint")
    walk.fill(
        {
            "Action number": "AC-1",
            "Served on": "2025-09-05",
            "Charges (the acts or failures to act, and the provisions of law)": (
                "GT-2 was not pumped out as 13.30.050(H) requires."
            ),
            "Delivered by": "personal",
        }
    )
    walk.submit("Issue")
    walk.done("AC-1 taken")
    walk.as_("clara")
    walk.go(f"{CASE}?as_of=2025-09-05")
    walk.step("Schedule the hearing on the Administrative complaint (AC-1)")
    walk.fill(
        {
            "Hearing number": "H-2",
            "Date of the hearing": "2025-09-25",
            "Place of the hearing": "City Hall, 910 Calle Negocio",
            "Notice of the hearing given on": "2025-09-05",
            "Delivered by": "personal",
        }
    )
    walk.submit()
    walk.done("Hearing H-2 set for 2025-09-25")
    walk.go(f"{CASE}?as_of=2025-09-25")
    walk.step("Record that the hearing H-2 concluded")
    walk.fill({"The hearing concluded on": "2025-09-25"})
    walk.submit()
    walk.done("Hearing H-2 concluded")
    walk.as_("maria")
    walk.go(f"{CASE}?as_of=2025-09-26")
    walk.step("Order imposing administrative civil penalties by the Utilities Manager on AC-1")
    walk.fill(
        {
            "Action number": "PO-1",
            "Issued by": "manager",
            "Issued on": "2025-09-26",
            "Served on": "2025-09-26",
            "Amount": "8000",
            "Class": "records",
            "Number of days": "2",
            "Delivered by": "personal",
        }
    )
    walk.submit("Issue")
    walk.refused("may not exceed $2,000 a day × 2 = $4,000")
    walk.fill({"Amount": "4000"})
    walk.submit("Issue")
    walk.done("PO-1 taken")
    text = walk.letter("PO-1")
    assert "13.30.080(I)(9)" in text  # the lien warning


def _council_order_invoice_payment_and_lien(walk):
    walk.as_("clara")
    walk.go(f"{CASE}?as_of=2025-10-01")
    walk.step("Appeal PO-1 to the City Council")
    walk.fill(
        {
            "Appeal number": "AP-2",
            "Appeal filed on": "2025-10-01",
            "Appealed by": "Pier Foods LLC",
            "Grounds of the appeal": "The penalty is out of proportion.",
        }
    )
    walk.submit()
    walk.done("Appeal AP-2 of PO-1 to the City Council filed")
    walk.go(f"{CASE}?as_of=2025-10-15")
    walk.step("Order imposing administrative civil penalties by the City Council on AP-2")
    walk.fill(
        {
            "Action number": "PO-2",
            "Issued by": "council",
            "Issued on": "2025-10-15",
            "Served on": "2025-10-15",
            "Amount": "2000",
            "Class": "records",
            "Number of days": "1",
            "Delivered by": "personal",
        }
    )
    walk.submit("Issue")
    walk.done("PO-2 taken")
    steps = walk.page.locator("#next-steps")
    expect(steps).not_to_contain_text("Invoice the penalty order PO-1")  # replaced (12.8)
    walk.as_("maria")
    walk.go(f"{CASE}?as_of=2025-10-15")
    walk.step("Invoice the penalty order PO-2")
    walk.page.get_by_label("Date of notice (mailed)").fill("2025-10-16")
    walk.page.get_by_role("button", name="Issue the invoice").click()
    expect(walk.page.get_by_role("heading", level=1)).to_contain_text("Invoice")
    walk.shot("invoice")
    walk.page.get_by_label("Paid on").fill("2025-10-20")
    walk.page.get_by_label("Amount paid").fill("1000.00")
    walk.page.get_by_role("button", name="Record the payment").click()
    expect(walk.page.locator("main")).to_contain_text("$1,000.00 of $2,000.00")
    walk.go("/establishments/FSE-0042/liens/new/?as_of=2025-12-20")
    expect(walk.page.locator("main")).to_contain_text("2025-12-14")  # final + 60 days
    walk.page.get_by_label("Penalty order").select_option("PO-2")
    walk.page.get_by_label("Recorded on").fill("2025-12-20")
    walk.page.get_by_label("Amount of the lien").fill("1000.00")
    walk.page.get_by_label("Recorded document number").fill("2025-0099123")
    walk.page.get_by_role("button", name="Record the lien").click()
    expect(walk.page.locator(".usa-alert--success, .messages").first).to_contain_text(
        "Lien 2025-0099123 for $1,000.00 (PO-2)"
    )
    walk.shot("lien-recorded")
    walk.go(f"{CASE}?as_of=2025-12-20")

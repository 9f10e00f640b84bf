"""A manager sends the first notice to every establishment with an overdue pump-out from the
dashboard, follows the work's progress and reads what was sent; and records a milestone met
and a court judgment from a case page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import EnforcementAction, Letter
from tests.browser.walkthrough import Walk
from tests.compliance.records import make_pier_taqueria
from tests.records import d
from tests.web.enforcement import san_clemente_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def walk(page, live_server, sign_in, screenshot):
    sc, _ = two_agencies()
    san_clemente_case(make_pier_taqueria(sc))
    for code in ("FSE-0043", "FSE-0044", "FSE-0045"):
        make_pier_taqueria(sc, code=code)
    sweep_agency(sc, as_of=d("2025-06-06"))
    make_user("maria", sc, role="manager")
    return Walk(page, live_server, sign_in, screenshot, "bulk")


def test_a_manager_sends_the_first_notice_to_every_overdue_pump_out(walk):
    walk.as_("maria")
    walk.go("/?as_of=2025-06-06")
    row = walk.page.locator("tr", has_text="Pump-out overdue")
    row.get_by_role("link", name="Send the first notice to them").click()
    expect(walk.page.get_by_role("heading", level=1)).to_contain_text(
        "Send the Notice of Non-Compliance to many establishments"
    )
    for code in ("FSE-0042", "FSE-0043", "FSE-0044", "FSE-0045"):
        expect(walk.page.locator(f"#fse-{code}")).to_be_checked()
    walk.page.locator("label[for=fse-FSE-0044]").click()  # not this one
    walk.fill({"Delivered on": "2025-06-06", "Correct by": "2025-07-06"})
    walk.page.get_by_label("First certified mail number of the roll").fill(
        "7019 0700 0000 0000 0001"
    )
    walk.shot("form")
    walk.page.get_by_role("button", name="Send to the establishments chosen").click()
    expect(walk.page.locator("#bulk-summary")).to_have_text(
        "Finished: 3 sent, 0 refused.", timeout=60_000
    )
    expect(walk.page.locator("#bulk-sent tbody tr")).to_have_count(3)
    walk.shot("finished")
    sent = Letter.objects.filter(
        action__type="notice_of_noncompliance", action__taken_on=d("2025-06-06")
    )
    assert sorted(sent.values_list("action__establishment__code", flat=True)) == [
        "FSE-0042",
        "FSE-0043",
        "FSE-0045",
    ]
    walk.page.locator("#bulk-sent").get_by_role("link").first.click()
    expect(walk.page.locator("#actions")).to_contain_text("Notice of Non-Compliance")


def test_a_manager_records_a_milestone_met_and_a_court_judgment(walk):
    walk.as_("maria")
    walk.go("/cases/FSE-0042/EC-7/?as_of=2025-06-06")
    walk.step("Compliance schedule")
    walk.fill(
        {
            "Action number": "CS-1",
            "Entered on": "2025-06-06",
            "Milestones": "M-1 2025-07-01 Pump out GT-2",
            "Delivered by": "personal",
        }
    )
    walk.submit("Issue")
    walk.done("CS-1 taken")
    walk.step("Record milestone M-1 of CS-1 met")
    walk.fill({"Milestone M-1 met on": "2025-06-30"})
    walk.submit()
    walk.done("CS-1: Milestone M-1 met on 2025-06-30 recorded")
    walk.step("Record a court judgment")
    walk.fill(
        {
            "Judgment number": "CJ-1",
            "Judgment entered on": "2025-09-01",
            "Violation penalised": "V-1",
            "Civil penalty ($)": "5000",
            "Quantity (in the class's unit)": "1",
            "Penalty class": "judicial",
        }
    )
    walk.shot("judgment-form")
    walk.submit()
    walk.done("Court judgment CJ-1 recorded")
    assert EnforcementAction.objects.get(code="CJ-1").fields["amount"] == "5000"

"""A report the Town's FOG Manager requires, through the pages (issue 42, 10.02.070(D)): the
manager requires a BMP report of Desert Diner from its establishment page, the due date
passes, the night's sweep opens the overdue finding with its citation on the establishment
page, the operator submits the report in the portal, and the finding closes."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.registry.models import Operator
from fogkeeper.submittals.models import AgencyMonitoring, ReportSubmission
from tests.portal.conftest import member
from tests.records import d, make_establishment
from tests.web.people import make_user, two_agencies

from .test_accessibility import serious_violations

pytestmark = pytest.mark.django_db(transaction=True)

TOWN = ZoneInfo("America/Los_Angeles")
REQUIRED = datetime(2025, 6, 10, 10, tzinfo=TOWN)
DAY_AFTER = datetime(2025, 6, 21, 9, tzinfo=TOWN)
TITLE = "Periodic report on the implementation of BMPs"
FINDING = "Required report not submitted"
PDF = {"name": "bmp-report.pdf", "mimeType": "application/pdf", "buffer": b"%PDF-1.4\n%%EOF\n"}


def assert_accessible(page) -> None:
    """These pages are not in the access matrix's agency (its ordinance requires no reports),
    so axe reads them here."""
    found = serious_violations(page)
    assert found == [], "\n".join(found)


@pytest.fixture
def town():
    with time_machine.travel(REQUIRED):
        _, town = two_agencies()
        make_establishment(town, code="T-1", name="Desert Diner", operator="Mesa Foods")
        sweep_agency(town, as_of=d("2025-06-10"))
        make_user("mona", town, role="manager")
        operator = Operator.objects.get(agency=town, name="Mesa Foods")
        member("tom", town, "operator", operator=operator)
        return town


def test_a_required_report_falls_overdue_and_closes_when_submitted(
    page, live_server, sign_in, screenshot, town
):
    url = live_server.url
    with time_machine.travel(REQUIRED):
        sign_in(page, "mona")
        page.goto(f"{url}/establishments/T-1/")
        page.get_by_role("link", name="Required reports: require one").click()
        page.get_by_label("Kind of report").select_option(label=f"{TITLE} (10.02.070(D))")
        page.get_by_label("Due on").fill("2025-06-20")
        page.get_by_label("What the report must cover (optional)").fill("Dry-wipe practice")
        screenshot(page, "required-report-require")
        assert_accessible(page)
        page.get_by_role("button", name="Require the report").click()
        expect(page.get_by_role("status")).to_contain_text(f"{TITLE} required")
        expect(page.locator("#required-reports")).to_contain_text("2025-06-20")

    with time_machine.travel(DAY_AFTER):
        sweep_agency(town, as_of=d("2025-06-21"))  # the night's sweep
        sign_in(page, "mona")  # the session of eleven days ago has ended
        page.goto(f"{url}/establishments/T-1/")
        finding = page.locator("#findings").get_by_role("row", name=FINDING)
        expect(finding).to_contain_text("10.02.070(D)")
        expect(finding).to_contain_text("the report due 2025-06-20")
        expect(finding).to_contain_text("2025-06-21")
        expect(page.locator("#required-reports")).to_contain_text("Overdue")
        screenshot(page, "required-report-overdue")
        assert_accessible(page)
        page.get_by_role("button", name="Sign out").click()
        page.wait_for_url("**/accounts/login/")

        sign_in(page, "tom")
        page.get_by_role("link", name="Desert Diner").click()
        page.get_by_role("link", name="Required reports: what is due, and submit one").click()
        expect(page.locator("#reports-due")).to_contain_text("Overdue")
        page.get_by_label("Which report").select_option(label=f"{TITLE}, due 2025-06-20, overdue")
        expect(page.get_by_label("Date submitted")).to_have_value("2025-06-21")
        page.get_by_label("The report (PDF, or a JPEG or PNG scan, up to 20 MB)").set_input_files(
            PDF
        )
        screenshot(page, "required-report-submit")
        assert_accessible(page)
        page.get_by_role("button", name="Submit the report").click()
        expect(page.get_by_role("status")).to_contain_text(f"{TITLE} due 2025-06-20 submitted")
        expect(page.locator("main")).to_contain_text("No report is due from your establishment")
        page.get_by_role("button", name="Sign out").click()
        page.wait_for_url("**/accounts/login/")

        sign_in(page, "mona")
        page.goto(f"{url}/establishments/T-1/")
        expect(page.locator("main")).not_to_contain_text(FINDING)
        expect(page.locator("#required-reports")).to_contain_text("Submitted 2025-06-21 (late)")
        screenshot(page, "required-report-closed")
    assert ReportSubmission.objects.get().submitted_on == d("2025-06-21")


def test_the_town_bills_its_monitoring_of_a_self_monitoring_report_not_done(
    page, live_server, sign_in, screenshot, town
):
    """10.02.140(C): the report was not done, so the Town did the monitoring; the manager
    records it with its cost and the permittee is invoiced."""
    url = live_server.url
    with time_machine.travel(REQUIRED):
        sign_in(page, "mona")
        page.goto(f"{url}/establishments/T-1/reports/")
        page.get_by_label("Kind of report").select_option(
            label="Self-monitoring report of wastewater constituents and characteristics "
            "(10.02.140(C))"
        )
        page.get_by_label("Due on").fill("2025-06-20")
        page.get_by_role("button", name="Require the report").click()
        expect(page.get_by_role("status")).to_contain_text("required")

    with time_machine.travel(DAY_AFTER):
        sign_in(page, "mona")
        page.goto(f"{url}/establishments/T-1/reports/")
        page.get_by_role("link", name="Record our monitoring and bill its cost").click()
        expect(page.get_by_role("heading", level=1)).to_have_text(
            "Monitoring at the permittee's cost"
        )
        page.get_by_label("Monitoring done on").fill("2025-06-21")
        page.get_by_label("Its cost to bill ($)").fill("412.50")
        page.get_by_label("What was done (optional)").fill("Grab sample at the interceptor")
        screenshot(page, "required-report-monitoring")
        assert_accessible(page)
        page.get_by_role("button", name="Record and bill").click()
        expect(page.get_by_role("status")).to_contain_text("Monitoring of 2025-06-21 billed")
        expect(page.locator("#required-reports")).to_contain_text("monitored 2025-06-21")
    invoice = AgencyMonitoring.objects.get().invoice
    assert (invoice.kind, str(invoice.lines.get().amount)) == ("noncompliance", "412.50")

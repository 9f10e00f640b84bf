"""The operator's enforcement page in a real browser: the operator of Pier Taqueria signs in,
finds the Notice of Non-Compliance with its correct-by date and the daily fine accruing since,
answers it, and finds its answer under the notice."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import NoticeAnswer
from fogkeeper.enforcement.services import action_take, case_open
from fogkeeper.registry.models import Operator
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.portal.conftest import letters, member
from tests.records import d
from tests.web.people import PASSWORD, two_agencies

from .test_accessibility import serious_violations

pytestmark = pytest.mark.django_db(transaction=True)

NOON = datetime(2025, 6, 30, 12, tzinfo=ZoneInfo("America/Los_Angeles"))


__all__ = ["letters"]  # the portal tests' fixture: letters are a fixed PDF


@pytest.fixture
def noticed(letters):
    """Harbor Eats runs Pier Taqueria; a notice delivered 2025-06-02 asked it to correct by
    2025-06-16, and it has not (San Clemente 13.30.080(E)(3): $600 a day since)."""
    with time_machine.travel(NOON):
        sc, _ = two_agencies()
        fse = make_pier_taqueria(sc)
        case = case_open(establishment=fse, code="EC-1", opened_on=d("2025-06-01"))
        action_take(
            case=case,
            type="notice_of_noncompliance",
            code="NNC-1",
            fields={
                "delivered_on": d("2025-06-02"),
                "correct_by": d("2025-06-16"),
                "corrective_action": "Pump out GI-1.",
            },
        )
        sweep_agency(sc, as_of=AS_OF)
        operator = Operator.objects.get(agency=sc, name="Harbor Eats Inc")
        member("olive", sc, "operator", operator=operator)
        yield


def test_an_operator_sees_its_notice_and_fine_and_answers_it(
    page, live_server, noticed, screenshot
):
    with time_machine.travel(NOON):
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill("olive")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{live_server.url}/portal/operator/")
        page.get_by_role("link", name="Pier Taqueria").click()
        page.get_by_role("link", name="Your notices, fines, hearings, decisions").click()

        notice = page.locator("#action-NNC-1")
        expect(notice.get_by_role("heading", level=3)).to_have_text(
            "Notice of Non-Compliance NNC-1"
        )
        expect(notice).to_contain_text("Correct by 2025-06-16")
        expect(notice).to_contain_text("Not corrected: past due")
        expect(notice).to_contain_text("A fine of $600.00 a day accrues from 2025-06-17")
        expect(notice).to_contain_text("$8,400.00 to date")
        expect(page.locator("#next")).to_contain_text(
            "Correct the violation of Notice of Non-Compliance NNC-1: it was due by 2025-06-16"
        )
        found = serious_violations(page)
        assert found == [], "\n".join(found)

        notice.get_by_role("link", name="Answer NNC-1").click()
        page.get_by_label("Your answer").fill("GI-1 was pumped out on 2025-06-28.\nManifest M-77.")
        page.get_by_role("button", name="File the answer").click()

        expect(page).to_have_url(
            f"{live_server.url}/portal/operator/FSE-0042/enforcement/#action-NNC-1"
        )
        expect(page.get_by_role("status")).to_contain_text("Your answer to NNC-1 was filed.")
        answers = page.locator("#answers-NNC-1")
        expect(answers).to_contain_text("2025-06-30: GI-1 was pumped out on 2025-06-28.")
        expect(answers).to_contain_text("Manifest M-77.")
        screenshot(page, "portal-enforcement")
        found = serious_violations(page)
        assert found == [], "\n".join(found)
    assert NoticeAnswer.objects.get().text.endswith("Manifest M-77.")

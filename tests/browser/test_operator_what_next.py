"""The operator's "What to do next" in a real browser, on a desktop and on a phone: Pier
Taqueria's GT-2 pump-out, years overdue, with a notice whose $600-a-day fine has run since
2025-06-17, comes first, with its days overdue, its fine to date and its section."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.services import action_take, case_open, violation_add
from fogkeeper.registry.models import Operator
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.portal.conftest import letters, member
from tests.records import d
from tests.web.people import two_agencies

from .conftest import PHONE
from .test_accessibility import serious_violations

pytestmark = pytest.mark.django_db(transaction=True)

NOON = datetime(2025, 6, 30, 12, tzinfo=ZoneInfo("America/Los_Angeles"))
OVERDUE = "Pump-out of GT-2: due by 2020-05-31, 1856 days overdue."
FINE = (
    "A fine of $8,400.00 has accrued on it to date ($600.00 a day from 2025-06-17 through "
    "2025-06-30, 13.30.080(E)(3))."
)

__all__ = ["letters"]  # the portal tests' fixture: letters are a fixed PDF


@pytest.fixture
def overdue(letters):
    """Harbor Eats runs Pier Taqueria, whose GT-2 has had no full pump-out by a licensed
    hauler since it was installed (make_pier_taqueria); a notice for it, delivered 2025-06-02,
    asked for it by 2025-06-16."""
    with time_machine.travel(NOON):
        sc, _ = two_agencies()
        fse = make_pier_taqueria(sc)
        case = case_open(establishment=fse, code="EC-1", opened_on=d("2025-06-01"))
        violation_add(
            case=case, code="V-1", rule="gcd.service_overdue", subject="GT-2", since=d("2020-06-01")
        )
        action_take(
            case=case,
            type="notice_of_noncompliance",
            code="NNC-1",
            fields={"delivered_on": d("2025-06-02"), "correct_by": d("2025-06-16")},
        )
        sweep_agency(sc, as_of=AS_OF)
        operator = Operator.objects.get(agency=sc, name="Harbor Eats Inc")
        member("olive", sc, "operator", operator=operator)
        yield


def _what_next(page, live_server, sign_in, screenshot, name: str) -> None:
    """Signs olive in, follows the links to the enforcement page and reads "What to do next"."""
    sign_in(page, "olive")
    page.get_by_role("link", name="Pier Taqueria").first.click()
    page.get_by_role("link", name="Your notices, fines, hearings, decisions").click()
    steps = page.locator("#next li")
    first = steps.first
    expect(first).to_contain_text("Overdue")
    expect(first).to_contain_text(OVERDUE)
    expect(first).to_contain_text(FINE)
    expect(first).to_contain_text("(§ 13.30.050(H)(1)(b))")
    expect(page.locator("#next")).to_contain_text(
        "Correct the violation of Notice of Non-Compliance NNC-1: it was due by 2025-06-16"
    )
    expect(page.locator("#next")).not_to_contain_text("gcd.")
    screenshot(page, name)
    found = serious_violations(page)
    assert found == [], "\n".join(found)


def test_an_operator_sees_what_is_overdue_first_on_a_desktop(
    page, live_server, overdue, sign_in, screenshot
):
    with time_machine.travel(NOON):
        _what_next(page, live_server, sign_in, screenshot, "operator-what-next-overdue")


def test_an_operator_sees_what_is_overdue_first_on_a_phone(
    page, live_server, overdue, sign_in, screenshot
):
    page.set_viewport_size(PHONE)
    with time_machine.travel(NOON):
        _what_next(page, live_server, sign_in, screenshot, "operator-what-next-overdue-phone")
        box = page.locator("#next li").first.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]

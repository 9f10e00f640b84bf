"""The legal calendar: each case's deadlines and the agency's list of what falls due."""

from decimal import Decimal

import pytest

from fogkeeper.compliance.reports import agency_calendar, case_accruals, case_deadlines
from fogkeeper.enforcement.services import action_take, case_open
from tests.records import make_establishment

from .steps import d, open_case

pytestmark = pytest.mark.django_db


def notice(case, code, delivered_on):
    return action_take(
        case=case,
        type="notice_of_noncompliance",
        code=code,
        fields={"delivered_on": d(delivered_on), "correct_by": d("2025-03-31")},
    )


def test_it_gives_a_case_its_deadlines_from_the_engine():
    fse, case, _ = open_case()
    notice(case, "NNC-1", "2025-03-03")

    assert [
        (x.action, x.name, x.date) for x in case_deadlines(establishment=fse, as_of=d("2025-03-04"))
    ] == [("NNC-1", "appeal", d("2025-03-13"))]


def test_daily_fines_accrue_through_the_date_asked():
    fse, case, _ = open_case()
    notice(case, "NNC-1", "2025-03-03")

    [fine] = case_accruals(establishment=fse, as_of=d("2025-04-05"))

    assert (fine.rule, fine.days, fine.amount) == ("enforcement.daily_fine", 5, Decimal(3000))


def test_it_lists_what_falls_due_in_the_next_weeks_across_the_agency():
    fse, case, _ = open_case()
    notice(case, "NNC-1", "2025-03-03")
    other = make_establishment(fse.agency, code="FSE-2")
    other_case = case_open(establishment=other, code="EC-2", opened_on=d("2025-03-01"))
    notice(other_case, "NNC-2", "2025-03-24")  # appeal by April 3: after the two weeks
    make_establishment(fse.agency, code="FSE-3")  # nothing pending

    due = agency_calendar(agency=fse.agency, as_of=d("2025-03-05"), weeks=2)

    assert [(x["establishment"], x["action"], x["name"], x["date"]) for x in due] == [
        ("FSE-1", "NNC-1", "appeal", "2025-03-13")
    ]

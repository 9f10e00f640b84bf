"""The page benchmark's users and what they visit (bench/visits.py), on a small generated
program: every page answers its user, and each login reaches what the bench sends it to."""

from __future__ import annotations

from datetime import date

import pytest
import time_machine

from bench import visits
from fogkeeper.compliance.generate import generate_program
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import EnforcementCase
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.web.models import Membership

pytestmark = pytest.mark.django_db

AS_OF = date(2025, 6, 30)


@pytest.fixture
def program():
    with time_machine.travel("2025-06-30 12:00 -07:00", tick=False):
        agency = generate_program(
            establishments=40, years=2, as_of=AS_OF, agency_code="bench", pack="san-clemente"
        ).agency
        sweep_agency(agency, as_of=AS_OF)
        yield agency


def test_every_page_answers_the_user_who_visits_it(program):
    staff = visits.staff_login(program, "pw")
    operators = visits.operator_logins(program, "pw", 3, AS_OF)
    cases = visits.sample_cases(program, 2, AS_OF)
    codes = list(program.establishments.values_list("code", flat=True))

    counts = visits.query_counts(staff, operators, codes, cases)

    assert list(counts) == list(visits.PAGES)
    assert {name: status for name, (_, status) in counts.items()} == dict.fromkeys(
        visits.PAGES, 200
    )
    assert all(queries > 0 for queries, _ in counts.values())


def test_the_staff_login_is_a_manager_of_the_agency_only(program):
    visits.staff_login(program, "old")
    user = visits.staff_login(program, "pw")  # a run before left one: made again
    assert not user.is_superuser and user.check_password("pw")
    assert list(Membership.objects.filter(user=user).values_list("agency", "role")) == [
        (program.pk, "manager")
    ]


def test_each_operator_login_runs_an_open_establishment_of_its_own(program):
    logins = visits.operator_logins(program, "pw", 3, AS_OF)
    assert len(logins) == 3 and len({code for _, code in logins}) == 3
    for username, code in logins:
        member = Membership.objects.select_related("user").get(user__username=username)
        assert member.role == "operator" and member.user.check_password("pw")
        fse = FoodServiceEstablishment.objects.get(agency=program, code=code)
        assert fse.current_tenure().operator_id == member.operator_id


def test_the_cases_are_about_open_violations_and_made_once(program):
    cases = visits.sample_cases(program, 2, AS_OF)
    assert len(cases) == 2
    assert visits.sample_cases(program, 5, AS_OF) == cases  # already there: the same ones
    for path in cases:
        code, case_code = path.split("/")
        case = EnforcementCase.objects.get(establishment__code=code, code=case_code)
        (violation,) = case.violations.all()
        assert case.establishment.findings.filter(
            rule=violation.rule, subject=violation.subject, since=violation.since, open=True
        ).exists()

"""The case page reads what the last evaluation stored when it is of the day shown, and loads
each kind of record once: at most 15 queries, however many actions the case holds."""

import re
from datetime import date

import pytest

from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.services import action_fact_record, action_take
from tests.compliance.records import make_pier_taqueria
from tests.pages import queries
from tests.records import d
from tests.web.enforcement import san_clemente_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

AS_OF = date(2025, 6, 6)
URL = f"/cases/FSE-0042/EC-7/?as_of={AS_OF}"
BUDGET = 15


@pytest.fixture
def case(client):
    sc, _ = two_agencies()
    case = san_clemente_case(make_pier_taqueria(sc))
    sweep_agency(sc, as_of=AS_OF)
    client.force_login(make_user("alice", sc, role="manager"))
    return case


def more_actions(case, count: int) -> None:
    """`count` notices more on the case, each with a fact recorded since; swept again."""
    for i in range(count):
        notice = action_take(
            case=case,
            type="notice_of_noncompliance",
            code=f"NNC-{i + 10}",
            violation=case.violations.get(),
            fields={"delivered_on": d("2025-05-01"), "correct_by": d("2025-05-29")},
            delivery="personal",
        )
        action_fact_record(action=notice, field="corrected_on", value=d("2025-05-10"))
    sweep_agency(case.establishment.agency, as_of=AS_OF)


def test_it_shows_a_case_in_at_most_15_queries(client, case):
    assert queries(client, URL) <= BUDGET


def test_it_runs_the_same_queries_for_4_actions_as_for_10(client, case):
    few = queries(client, URL)
    more_actions(case, 6)
    assert case.actions.count() == 10
    assert queries(client, URL) == few


def test_it_shows_the_same_page_from_the_stored_evaluation_as_evaluated_afresh(client, case):
    stored = client.get(URL).content.decode()
    ComplianceStatus.objects.filter(establishment=case.establishment).delete()
    fresh = client.get(URL).content.decode()
    assert 'id="accruals"' in stored and 'id="deadlines"' in stored
    assert _without_token(stored) == _without_token(fresh)


def _without_token(html: str) -> str:
    return re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]+', r"\1", html)

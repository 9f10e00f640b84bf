"""Cases and actions opened at once at one establishment: each gets its own code (the next
free one, read under the establishment's lock), and a code typed on two pages at once is
stored once and refused once in words, never a 500 (issue 15, item 5)."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.compliance.from_findings import _send_one, bulk_notice_start, case_from_findings
from fogkeeper.enforcement.models import EnforcementAction, EnforcementCase
from fogkeeper.enforcement.services import action_take
from tests.races import race
from tests.records import make_agency, make_establishment
from tests.web.reports.test_lists import finding

pytestmark = pytest.mark.django_db(transaction=True)
N = 10
ON = date(2025, 6, 6)
RULE = "gcd.missing"
FIELDS = {"delivered_on": ON, "correct_by": date(2025, 7, 6)}


@pytest.fixture
def fse():
    fse = make_establishment(make_agency())
    finding(fse, RULE, "2025-01-01")
    return fse


def findings(fse):
    return list(fse.findings.filter(rule=RULE))


def test_it_gives_each_case_opened_at_once_its_own_code(fse):
    cases = race(
        N,
        lambda i: case_from_findings(establishment=fse, findings=findings(fse), opened_on=ON).code,
    )
    assert sorted(cases) == sorted(f"EC-{n}" for n in range(1, N + 1)), cases


def test_it_gives_each_notice_sent_at_once_its_own_case_and_action_code(fse):
    run = bulk_notice_start(
        agency=fse.agency, rule=RULE, codes=[fse.code], fields=FIELDS, delivery="personal", as_of=ON
    )
    sent = race(N, lambda i: _send_one(run, fse.code, i))
    assert all("action" in s for s in sent), sent
    assert len({s["action"] for s in sent}) == len({s["case"] for s in sent}) == N
    assert EnforcementAction.objects.filter(establishment=fse).count() == N


def test_it_stores_a_code_typed_on_many_pages_at_once_once(fse):
    case = case_from_findings(establishment=fse, findings=findings(fse), opened_on=ON)
    done = race(
        N,
        lambda i: action_take(
            case=case,
            type="notice_of_noncompliance",
            code="NNC-1",
            fields=FIELDS,
            delivery="personal",
        ),
    )
    refused = [r for r in done if isinstance(r, ValidationError)]
    assert len(refused) == N - 1, done
    assert all("NNC-1 is taken" in " ".join(r.messages) for r in refused), refused[0]
    assert "use NNC-2" in " ".join(refused[0].messages)
    assert EnforcementCase.objects.filter(establishment=fse).count() == 1

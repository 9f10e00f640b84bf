"""Each write service of enforcement (a case, its violations and actions, facts, answers,
appeals, hearings, judgments, a case from findings, a bulk notice) evaluates the establishment
it changed again as it commits; a bulk notice's run, all its establishments in one batch."""

from __future__ import annotations

from decimal import Decimal

import pytest

from fogkeeper import reevaluation
from fogkeeper.compliance.from_findings import (
    bulk_notice_start,
    case_from_findings,
    run_bulk_notice,
)
from fogkeeper.compliance.models import ComplianceStatus, Finding
from fogkeeper.enforcement.services import (
    action_fact_record,
    action_take,
    appeal_file,
    case_close,
    case_open,
    court_judgment_record,
    hearing_conclude,
    hearing_schedule,
    hearing_waive,
    notice_answer,
    violation_add,
)
from tests.records import d, make_agency, make_device, make_establishment
from tests.reevaluation import assert_evaluated_again, check_write, today

pytestmark = pytest.mark.django_db


def _case(fse):
    return case_open(establishment=fse, code="EC-1", opened_on=d("2025-03-01"))


def _violation(fse):
    return violation_add(
        case=_case(fse),
        code="V-1",
        rule="gcd.service_overdue",
        subject="GI-1",
        since=d("2025-02-15"),
    )


def _notice(fse):
    return action_take(
        case=_case(fse),
        type="notice_of_noncompliance",
        code="NNC-1",
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
    )


def _complaint(fse):
    return action_take(
        case=_case(fse),
        type="administrative_complaint",
        code="AC-1",
        fields={"served_on": d("2025-03-02")},
        delivery="personal",
    )


def _hearing(fse):
    return hearing_schedule(
        notice=_complaint(fse), code="H-1", hearing_on=d("2025-03-24"), noticed_on=d("2025-03-02")
    )


def _judgment(fse):
    violation = _violation(fse)
    return lambda: court_judgment_record(
        case=violation.case,
        code="CJ-1",
        entered_on=d("2025-09-01"),
        violation=violation,
        amount=Decimal("25000"),
        days=1,
    )


def _concluded(fse):
    hearing = _hearing(fse)
    return lambda: hearing_conclude(hearing=hearing, concluded_on=d("2025-03-24"))


WRITES = {
    case_open: lambda fse: lambda: _case(fse),
    violation_add: lambda fse: lambda: _violation(fse),
    case_close: lambda fse: (
        lambda: case_close(
            case=_case(fse), code="CL-1", closed_on=d("2025-04-02"), reason="withdrawn"
        )
    ),
    action_take: lambda fse: lambda: _notice(fse),
    action_fact_record: lambda fse: (
        lambda: action_fact_record(action=_notice(fse), field="corrected_on", value=d("2025-03-20"))
    ),
    notice_answer: lambda fse: (
        lambda: notice_answer(
            action=_notice(fse), text="Pumped out on 3/20.", answered_on=d("2025-03-21")
        )
    ),
    appeal_file: lambda fse: (
        lambda: appeal_file(
            appealed=_notice(fse), code="A-1", filed_on=d("2025-03-10"), to="manager"
        )
    ),
    hearing_schedule: lambda fse: lambda: _hearing(fse),
    hearing_conclude: _concluded,
    hearing_waive: lambda fse: (
        lambda: hearing_waive(
            notice=_complaint(fse), code="W-1", waived_on=d("2025-03-02"), waived_by="The operator"
        )
    ),
    court_judgment_record: _judgment,
}


@pytest.mark.parametrize("service", list(WRITES), ids=[f.__name__ for f in WRITES])
def test_the_write_evaluates_its_establishment_again_as_it_commits(service):
    check_write(WRITES[service])


def _overdue(fse) -> list[Finding]:
    """The establishment's open finding of an overdue pump-out, found by an evaluation whose
    stored status is then dropped (the write under test must evaluate it again)."""
    make_device(fse, "GT-1", "trap", service_frequency_days=30)
    reevaluation.reevaluate_on_commit(fse)
    ComplianceStatus.objects.filter(establishment=fse).delete()
    return list(Finding.objects.filter(establishment=fse, open=True, rule="gcd.service_overdue"))


def test_a_case_opened_from_findings_evaluates_its_establishment_again():
    fse = make_establishment(make_agency())
    findings = _overdue(fse)

    case_from_findings(establishment=fse, findings=findings, opened_on=today(fse))

    assert_evaluated_again(fse)


def test_a_bulk_notice_evaluates_the_establishments_it_sent_to_again_in_one_batch(monkeypatch):
    agency = make_agency()
    fses = [make_establishment(agency, code=f"FSE-{n}") for n in (1, 2)]
    for fse in fses:
        _overdue(fse)
    asked = []
    real = reevaluation.queue.reevaluate
    monkeypatch.setattr(
        reevaluation.queue, "reevaluate", lambda *a, **kw: asked.append(a) or real(*a, **kw)
    )
    run = bulk_notice_start(
        agency=agency,
        rule="gcd.service_overdue",
        codes=[f.code for f in fses],
        fields={"delivered_on": today(fses[0]), "correct_by": today(fses[0])},
        delivery="personal",
        as_of=today(fses[0]),
    )

    run_bulk_notice(run.pk)

    assert asked == [(agency.pk, {fse.pk for fse in fses})]
    for fse in fses:
        assert_evaluated_again(fse)

"""Helpers for enforcement tests: an establishment with an open case, and what the engine
says of it on a date (through the case file the sweep builds)."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.reports import establishment_report
from fogkeeper.enforcement.models import ActionFact, EnforcementAction
from fogkeeper.enforcement.services import (
    action_take,
    appeal_file,
    case_open,
    hearing_waive,
    violation_add,
)
from tests.records import d, make_agency, make_establishment


def open_case(pack: str = "san-clemente", rule: str = "gcd.service_overdue"):
    agency = make_agency(pack)
    fse = make_establishment(agency, code="FSE-1")
    case = case_open(establishment=fse, code="EC-1", opened_on=d("2025-03-01"))
    violation = violation_add(
        case=case, code="V-1", rule=rule, subject="GI-1", since=d("2025-02-15")
    )
    return fse, case, violation


def heard_complaint(case, served_on: str = "2025-03-02", code: str = "AC-1"):
    """The case's administrative complaint `code`, served on `served_on` with its hearing
    waived in writing that day (made once): a penalty order may follow it (RULES.md 12.1)."""
    found = EnforcementAction.objects.filter(case=case, code=code).first()
    if found is not None:
        return found
    complaint = action_take(
        case=case,
        type="administrative_complaint",
        code=code,
        fields={"served_on": d(served_on)},
        delivery="personal",
    )
    hearing_waive(
        notice=complaint, code=f"W-{code}", waived_on=d(served_on), waived_by="The operator"
    )
    return complaint


def emergency_heard(case, ordered_at: str = "2025-07-01T08:00:00", concluded_at: str = ""):
    """An emergency suspension ES-1 whose hearing concluded (by default a day after it was
    ordered): the decision after the emergency hearing may follow it (RULES.md 12.1)."""
    from datetime import datetime, timedelta

    from fogkeeper.enforcement.services import action_fact_record

    ordered = datetime.fromisoformat(ordered_at)
    suspension = action_take(
        case=case, type="emergency_suspension", code="ES-1", fields={"ordered_at": ordered}
    )
    concluded = datetime.fromisoformat(concluded_at) if concluded_at else ordered + timedelta(1)
    action_fact_record(action=suspension, field="hearing_concluded_at", value=concluded)
    return suspension


def rejected_late(appealed, filed_on: str, to: str):
    """An appeal received after its last day: recorded, rejected as late, changing no date
    of the action appealed (RULES.md 12.7)."""
    before = appealed.effective_fields()
    appeal = appeal_file(appealed=appealed, code="A-1", filed_on=d(filed_on), to=to)
    assert appeal.fields["rejected"] == "late"
    assert appealed.effective_fields() == before
    return appeal


def deadlines(fse, as_of: str) -> dict[tuple[str, str, str], str]:
    report = establishment_report(establishment=fse, as_of=d(as_of))
    return {(x.action, x.name, x.kind): x.date.isoformat() for x in report.deadlines}


def accruals(fse, as_of: str) -> list[tuple[str, int, str]]:
    report = establishment_report(establishment=fse, as_of=d(as_of))
    return [(a.action, a.days, f"{a.amount:.2f}") for a in report.accruals]


def findings(fse, as_of: str, rule: str) -> list[tuple[str, str, bool]]:
    report = establishment_report(establishment=fse, as_of=d(as_of))
    return [(f.subject, f.since.isoformat(), f.open) for f in report.findings if f.rule == rule]


def counts() -> tuple[int, int, int]:
    return (
        EnforcementAction.objects.count(),
        ActionFact.objects.count(),
        AuditEvent.objects.count(),
    )


def refused(call, **kw) -> str:
    """The messages of the one ValidationError `call` raises, having saved nothing."""
    return " ".join(refusal(call, **kw).messages)


def refusal(call, **kw) -> ValidationError:
    before = counts()
    with pytest.raises(ValidationError) as e:
        call(**kw)
    assert counts() == before
    return e.value


__all__ = [
    "date",
    "d",
    "open_case",
    "heard_complaint",
    "emergency_heard",
    "deadlines",
    "accruals",
    "findings",
    "counts",
    "refused",
    "refusal",
    "rejected_late",
]

"""Helpers for enforcement tests: an establishment with an open case, and what the engine
says of it on a date (through the case file the sweep builds)."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.reports import establishment_report
from fogkeeper.enforcement.models import ActionFact, EnforcementAction
from fogkeeper.enforcement.services import case_open, violation_add
from tests.records import d, make_agency, make_establishment


def open_case(pack: str = "san-clemente", rule: str = "gcd.service_overdue"):
    agency = make_agency(pack)
    fse = make_establishment(agency, code="FSE-1")
    case = case_open(establishment=fse, code="EC-1", opened_on=d("2025-03-01"))
    violation = violation_add(
        case=case, code="V-1", rule=rule, subject="GI-1", since=d("2025-02-15")
    )
    return fse, case, violation


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
    "date", "d", "open_case", "deadlines", "accruals", "findings", "counts", "refused", "refusal",
]  # fmt: skip

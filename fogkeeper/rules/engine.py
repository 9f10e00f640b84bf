"""evaluate(case_file, as_of) -> Report: the one place compliance is decided."""

from __future__ import annotations

from datetime import date
from typing import Any

from .casefile import CaseFile, parse_case
from .checks import OPERATIONAL, enforcement
from .context import Context
from .errors import CaseFileError, Problem
from .report import Accrual, Deadline, Finding, Report, ScheduleItem


def _status(ctx: Context) -> tuple[str | None, str | None]:
    """`inactive` or `exempt` with the citation that says so; (None, None) when the chapter
    applies (RULES.md 3)."""
    est = ctx.est
    closed = ctx.act(est.closed_on)
    if closed is not None:
        return "inactive", None
    if not est.on_public_sewer and ctx.params["applicability.exempt_off_public_sewer"]:
        return "exempt", ctx.params.reference("applicability.exempt_off_public_sewer")
    if ctx.category in ctx.params["applicability.exempt_categories"]:
        return "exempt", ctx.params.reference("applicability.exempt_categories")
    return None, None


def _finding_order(f: Finding) -> tuple[Any, ...]:
    return (not f.open, f.rule, f.subject, f.since, f.resolved_on or f.since)


def _schedule_order(s: ScheduleItem) -> tuple[Any, ...]:
    return (s.due, s.obligation, s.subject)


def _deadline_order(d: Deadline) -> tuple[Any, ...]:
    return (d.date.isoformat(), d.action, d.name, d.kind)  # a date beside date-times


def _accrual_order(a: Accrual) -> tuple[Any, ...]:
    return (a.action, a.rule)


def evaluate(case: CaseFile | dict[Any, Any], as_of: date | None = None) -> Report:
    """Decide one establishment's compliance on `as_of` (default: the case file's own)."""
    if not isinstance(case, CaseFile):
        case = parse_case(case, as_of=as_of)
    as_of = as_of or case.as_of
    if as_of is None:
        raise CaseFileError([Problem("as_of", "required (in the file or with --as-of)")])
    if as_of < case.pack.effective:
        raise CaseFileError(
            [
                Problem(
                    "as_of",
                    f"{as_of} is before {case.pack.id} took effect on {case.pack.effective}",
                )
            ]
        )
    ctx = Context(case, as_of)
    exemption, citation = _status(ctx)
    applies = exemption is None
    if applies:
        for area in OPERATIONAL:
            area.check(ctx)
    deadlines, accruals = enforcement.check(ctx, with_findings=applies)
    if exemption is None:
        violated = any(f.open and f.severity == "violation" for f in ctx.findings)
        status = "non_compliant" if violated else "compliant"
    else:
        status = exemption
    ctx.findings.sort(key=_finding_order)
    ctx.schedule.sort(key=_schedule_order)
    deadlines.sort(key=_deadline_order)
    accruals.sort(key=_accrual_order)
    return Report(
        jurisdiction=case.pack.id,
        establishment=ctx.est_id,
        name=ctx.est.name,
        as_of=as_of,
        status=status,
        status_citation=citation,
        findings=ctx.findings if applies else [],
        schedule=ctx.schedule if applies else [],
        deadlines=deadlines,
        accruals=accruals,
    )

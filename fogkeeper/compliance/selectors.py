"""What the sweep stored, read for the pages: the findings and the schedule of an
establishment that concern one of its records."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db.models import Exists, OuterRef

from fogkeeper.enforcement.models import CaseViolation, EnforcementCase
from fogkeeper.incidents.models import Incident
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.rules.report import Accrual, Deadline, Report

from .models import ComplianceStatus, Finding
from .reports import establishment_report


def incident_findings(incident: Incident) -> list[Finding]:
    """The findings the engine made of the incident (open and closed), oldest first."""
    if incident.establishment_id is None:
        return []
    return list(
        Finding.objects.filter(
            establishment_id=incident.establishment_id,
            subject=incident.code,
            rule__startswith="incident.",
        ).order_by("since", "rule")
    )


def live_case_violations(case_ids: list[int]) -> dict[int, list[tuple[str, bool]]]:
    """The rule of each violation of these cases, in the order of their codes, and whether
    the last sweep holds it an open finding still; keyed by case pk, in one query."""
    open_finding = Finding.objects.filter(
        establishment=OuterRef("case__establishment"),
        rule=OuterRef("rule"),
        subject=OuterRef("subject"),
        open=True,
    )
    out: dict[int, list[tuple[str, bool]]] = defaultdict(list)
    for case_id, rule, live in (
        CaseViolation.objects.filter(case_id__in=case_ids)
        .annotate(live=Exists(open_finding))
        .order_by("code")
        .values_list("case_id", "rule", "live")
    ):
        out[case_id].append((rule, live))
    return out


def case_violations_found(case: EnforcementCase) -> list[tuple[CaseViolation, bool]]:
    """The violations the case is about, in the order of their codes, each with whether the
    last stored evaluation holds it an open finding still; in one query."""
    open_finding = Finding.objects.filter(
        establishment_id=case.establishment_id,
        rule=OuterRef("rule"),
        subject=OuterRef("subject"),
        open=True,
    )
    violations = (
        CaseViolation.objects.filter(case=case)
        .annotate(found=Exists(open_finding))
        .order_by("code")
    )
    return [(v, v.found) for v in violations]


def stored_calendar(
    establishment: FoodServiceEstablishment, as_of: date
) -> tuple[list[Deadline], list[Accrual]] | None:
    """The deadlines and accruals of the establishment's enforcement as its last stored
    evaluation (the sweep's, or the re-evaluation after a write) gave them, when that was of
    `as_of`: what the engine gives that day, read rather than evaluated again; else None.
    Reads `establishment.compliance`, which the caller may have selected with it."""
    try:
        stored = establishment.compliance
    except ComplianceStatus.DoesNotExist:
        return None
    if stored.as_of != as_of:
        return None
    deadlines = [
        Deadline(d["action"], d["name"], _day_or_moment(d["date"]), d["kind"], d["citation"])
        for d in stored.deadlines or []
    ]
    accruals = [
        Accrual(
            action=a["action"],
            rule=a["rule"],
            days=a["days"],
            rate=Decimal(str(a["rate"])),
            amount=Decimal(str(a["amount"])),
            citation=a["citation"],
            start=date.fromisoformat(a["from"]),
            through=date.fromisoformat(a["through"]),
        )
        for a in stored.accruals or []
    ]
    return deadlines, accruals


@dataclass
class DayWord:
    """What the engine gives an establishment's enforcement on a day: the deadlines and fines
    of its actions and the schedule of its obligations (as the report's dicts); `report` is
    the report itself when it was evaluated afresh, None when read from the stored evaluation."""

    deadlines: list[Deadline]
    accruals: list[Accrual]
    schedule: list[dict[str, Any]]
    report: Report | None = None


def day_word(establishment: FoodServiceEstablishment, as_of: date) -> DayWord:
    """The engine's word on `as_of`: read from the establishment's last stored evaluation when
    that was of `as_of` (the sweep's of today, kept current after each write), else evaluated
    afresh. Raises CaseFileError when its records make no valid case file."""
    stored = stored_calendar(establishment, as_of)
    if stored is not None:
        return DayWord(*stored, schedule=list(establishment.compliance.schedule or []))
    report = establishment_report(establishment=establishment, as_of=as_of)
    schedule = [item.to_dict() for item in report.schedule]
    return DayWord(report.deadlines, report.accruals, schedule, report)


def _day_or_moment(text: str) -> date | datetime:
    """A deadline's stored date: a day, or a moment with its offset (the hour-based ones)."""
    return datetime.fromisoformat(text) if "T" in text else date.fromisoformat(text)


def swept_calendars(establishment_ids: set[int]) -> dict[int, tuple[date, list, list]]:
    """What the last sweep of each of these establishments gave its enforcement: the day it
    evaluated, the deadlines and the accruals; keyed by establishment pk, in one query."""
    return {
        est_id: (as_of, deadlines or [], accruals or [])
        for est_id, as_of, deadlines, accruals in ComplianceStatus.objects.filter(
            establishment_id__in=establishment_ids
        ).values_list("establishment_id", "as_of", "deadlines", "accruals")
    }


def incident_schedule(incident: Incident) -> list[dict[str, Any]]:
    """What the establishment's schedule still expects of the incident (the written report)."""
    if incident.establishment_id is None:
        return []
    status = ComplianceStatus.objects.filter(establishment_id=incident.establishment_id).first()
    items = status.schedule if status is not None else []
    return [i for i in items or [] if i.get("subject") == incident.code]


def violation_findings(*, establishment, keys: set[tuple[str, str]], on, **_) -> dict[tuple, list]:
    """(rule, subject) -> findings of it at the establishment by `on`, oldest first: the sweep's,
    else the engine's on `on` (only when the sweep has stored none of them). Answers
    fogkeeper.upcalls' findings_of, for the letters."""
    stored = Finding.objects.filter(
        establishment=establishment, rule__in={r for r, _ in keys}, since__lte=on
    ).order_by("since", "pk")
    out: dict[tuple, list] = {}
    for f in stored:
        if (f.rule, f.subject) in keys:
            out.setdefault((f.rule, f.subject), []).append(f)
    missing = keys - set(out)
    if missing:
        report = establishment_report(establishment=establishment, as_of=on)
        for found in sorted(report.findings, key=lambda f: f.since):
            if (found.rule, found.subject) in missing:
                out.setdefault((found.rule, found.subject), []).append(found)
    return out


def report(*, establishment, as_of, **_):
    """The establishment's report as of `as_of`: answers fogkeeper.upcalls' report_of."""
    return establishment_report(establishment=establishment, as_of=as_of)

"""What the sweep stored, read for the pages: the findings and the schedule of an
establishment that concern one of its records."""

from __future__ import annotations

from typing import Any

from fogkeeper.incidents.models import Incident

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
    fogkeeper.signals.findings_wanted, for the letters."""
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
    """The establishment's report as of `as_of`: answers fogkeeper.signals.report_wanted."""
    return establishment_report(establishment=establishment, as_of=as_of)

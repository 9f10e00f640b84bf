"""Reads of required reports: the case files' `reports`, each requirement's due dates with
their state for the establishment page and the operator's portal, and the counts of the
annual report."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from fogkeeper.registry.models import Agency, FoodServiceEstablishment

from .models import AgencyMonitoring, ReportRequirement, ReportSubmission


def report_id(requirement_pk: int, due_on: date) -> str:
    """The case file's id of one due date of a requirement (a finding's subject)."""
    return f"RPT-{requirement_pk}-{due_on:%Y%m%d}"


_REPORT_ID = re.compile(r"RPT-\d+-(\d{4})(\d{2})(\d{2})")


def report_subject_words(subject: str) -> str | None:
    """A finding's subject that is a due date of a required report, as a person says it
    ("the report due 2025-03-31"); None for any other subject."""
    match = _REPORT_ID.fullmatch(subject)
    return f"the report due {'-'.join(match.groups())}" if match else None


def report_entries(agency: Agency, ids: Iterable[int], as_of: date) -> dict[int, list[dict]]:
    """The case files' `reports` of the establishments `ids`, keyed by establishment pk: one
    entry for each due date on or before `as_of` and the next one after it (two queries)."""
    requirements = list(
        ReportRequirement.objects.filter(
            establishment__agency=agency, establishment_id__in=list(ids), required_on__lte=as_of
        ).order_by("establishment_id", "pk")
    )
    submitted: dict[tuple[int, date], date] = {
        (req, due): on
        for req, due, on in ReportSubmission.objects.filter(
            requirement__in=requirements
        ).values_list("requirement_id", "due_on", "submitted_on")
    }
    out: dict[int, list[dict]] = defaultdict(list)
    for r in requirements:
        for due in r.due_dates(as_of):
            entry = {"id": report_id(r.pk, due), "kind": r.kind, "due_on": due.isoformat()}
            on = submitted.get((r.pk, due))
            if on is not None:
                entry["submitted_on"] = on.isoformat()
            out[r.establishment_id].append(entry)
    return out


@dataclass(frozen=True)
class DueReport:
    """One due date of a requirement, as the pages show it."""

    requirement: ReportRequirement
    due_on: date
    submission: ReportSubmission | None
    as_of: date
    monitoring: AgencyMonitoring | None = None

    @property
    def overdue(self) -> bool:
        return self.submission is None and self.as_of > self.due_on

    @property
    def may_bill_monitoring(self) -> bool:
        """Overdue, not yet monitored, and of a kind the agency may monitor at cost."""
        return (
            self.overdue and self.monitoring is None and bool(self.requirement.monitoring_citation)
        )

    @property
    def state(self) -> str:
        if self.monitoring is not None:
            m = self.monitoring
            return f"Not submitted; monitored {m.performed_on}, billed on {m.invoice.code}"
        if self.submission is not None:
            late = self.submission.submitted_on > self.due_on
            return f"Submitted {self.submission.submitted_on}" + (" (late)" if late else "")
        return "Overdue" if self.overdue else "Due"


def due_reports(establishment: FoodServiceEstablishment, as_of: date) -> list[DueReport]:
    """Every due date of the establishment's requirements on or before `as_of` and the
    next, newest first, with what was submitted for it."""
    requirements = list(
        establishment.report_requirements.select_related("establishment__agency")
        .prefetch_related("submissions", "monitorings__invoice")
        .filter(required_on__lte=as_of)
    )
    rows = []
    for r in requirements:
        by_due = {s.due_on: s for s in r.submissions.all()}
        monitored = {m.due_on: m for m in r.monitorings.all() if m.performed_on <= as_of}
        rows += [
            DueReport(r, due, by_due.get(due), as_of, monitored.get(due))
            for due in r.due_dates(as_of)
        ]
    rows.sort(key=lambda row: (row.due_on, row.requirement.pk), reverse=True)
    return rows


def outstanding_reports(establishment: FoodServiceEstablishment, as_of: date) -> list[DueReport]:
    """The due dates the operator has yet to submit a report for, soonest first."""
    rows = [row for row in due_reports(establishment, as_of) if row.submission is None]
    return sorted(rows, key=lambda row: row.due_on)


def due_between(agency: Agency, start: date, end: date, as_of: date) -> list[DueReport]:
    """The agency's required reports falling due from `start` to the day before `end`, each
    with what was submitted for it by `as_of` (the staff calendar's entries; two queries)."""
    requirements = (
        ReportRequirement.objects.filter(establishment__agency=agency, required_on__lte=as_of)
        .exclude(ended_on__lte=start)
        .select_related("establishment__agency")
        .prefetch_related("submissions")
    )
    rows = []
    for r in requirements:
        by_due = {s.due_on: s for s in r.submissions.all() if s.submitted_on <= as_of}
        rows += [
            DueReport(r, due, by_due.get(due), as_of)
            for due in r.due_dates(end)
            if start <= due < end
        ]
    return rows


def requirement_of(agency: Agency, pk: int) -> ReportRequirement | None:
    """The agency's requirement `pk`, or None (another agency's is none of its own)."""
    return (
        ReportRequirement.objects.select_related("establishment__agency")
        .filter(pk=pk, establishment__agency=agency)
        .first()
    )


def report_counts(agency: Agency, start: date, end: date) -> dict[str, dict[str, int]]:
    """The annual report's counts by kind of report: those falling due from `start` to `end`
    (inclusive), those received by `end`, and those late (received after the due date, or
    not at all by `end` when due before it); two queries."""
    counts: dict[str, dict[str, int]] = {}
    requirements = ReportRequirement.objects.filter(
        establishment__agency=agency, required_on__lte=end
    ).prefetch_related("submissions")
    for r in requirements:
        by_due = {s.due_on: s.submitted_on for s in r.submissions.all()}
        kind = counts.setdefault(r.kind, {"required": 0, "received": 0, "late": 0})
        for due in r.due_dates(end):
            if not start <= due <= end:
                continue
            on = by_due.get(due)
            kind["required"] += 1
            kind["received"] += on is not None and on <= end
            kind["late"] += (on is None and due < end) or (on is not None and on > due)
    return counts

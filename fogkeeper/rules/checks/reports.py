"""Reports the agency requires of an establishment (issue 42): the kinds are the pack's
`reports:`, each due date the manager set is a record of the case file's `reports`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from ..context import Context
from ..declared import Rule
from ..records import Report

OVERDUE = "report.overdue"

# The rules this module raises (fogkeeper.rules.declared): a pack lists those it enforces.
RULES = (
    Rule(
        OVERDUE,
        obligation="report.due",
        says="A report required by the agency",
        reminded=True,
    ),
)


def check(ctx: Context) -> None:
    """A required report not submitted by its due date is overdue from the day after, until
    it is submitted; the finding cites the pack's section of its kind. A pack that declares
    no kinds of report never raises it."""
    kinds = ctx.pack.reports
    if OVERDUE not in ctx.rules or not kinds:
        return
    for report in ctx.case.reports:
        kind = kinds.get(report.kind)
        if kind is None:
            continue  # refused when the case file was read
        submitted = ctx.act(report.submitted_on)
        if submitted is None:
            ctx.plan("report.due", report.id, report.due_on, OVERDUE)
        ctx.overdue(
            OVERDUE,
            report.id,
            report.due_on,
            submitted,
            _says(kind.title, report, submitted),
            evidence={"kind": report.kind},
            citation=kind.citation,
        )


def _says(title: str, report: Report, submitted: date | None) -> Callable[[], str]:
    """The finding's words, written only when a finding is made."""
    if submitted is None:
        return lambda: f"{title} was due on {report.due_on} and has not been submitted."
    return lambda: f"{title} was due on {report.due_on}; it was submitted on {submitted}."

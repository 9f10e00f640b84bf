"""The readable text report (`fogkeeper evaluate --format text`)."""

from __future__ import annotations

from typing import Any

from .report import Report

_STATUS = {
    "non_compliant": "NOT IN COMPLIANCE",
    "compliant": "in compliance",
    "exempt": "exempt from the chapter",
    "inactive": "inactive (closed)",
}


def report_text(report: Report, pack: Any) -> str:
    lines = [
        f"{report.name or report.establishment} ({report.establishment}) — {pack.name}, "
        f"as of {report.as_of}: {_STATUS[report.status]}"
        + (f" ({report.status_citation})" if report.status_citation else ""),
    ]
    open_ = [f for f in report.findings if f.open]
    closed = [f for f in report.findings if not f.open]
    if open_:
        lines.append(f"  Open findings ({len(open_)}):")
        for f in open_:
            lines.append(
                f"    [{f.severity}] {f.rule} — {f.subject}, since {f.since} "
                f"({pack.titles.get('code', '§')} {f.citation})"
            )
            lines.append(f"        {f.message}")
    if closed:
        lines.append(f"  Resolved in the last year ({len(closed)}):")
        for f in closed:
            lines.append(f"    {f.rule} — {f.subject}, {f.since} to {f.resolved_on} ({f.citation})")
    if report.schedule:
        lines.append("  Coming due:")
        for s in report.schedule:
            late = "  OVERDUE" if s.due < report.as_of else ""
            lines.append(f"    {s.due}  {s.obligation} — {s.subject}{late}")
    if report.deadlines:
        lines.append("  Enforcement deadlines:")
        for d in report.deadlines:
            lines.append(
                f"    {d.date.isoformat():<19}  {d.action} {d.name} ({d.kind}; {d.citation})"
            )
    if report.accruals:
        lines.append("  Accruing:")
        for a in report.accruals:
            lines.append(
                f"    {a.action} {a.rule}: {a.days} days × ${a.rate:,} = ${a.amount:,} "
                f"({a.start} to {a.through}; {a.citation})"
            )
    if len(lines) == 1:
        lines.append("  Nothing found, nothing coming due.")
    return "\n".join(lines) + "\n"

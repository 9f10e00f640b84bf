"""Sewer overflows, spills and blockages attributed to the FSE (RULES.md 9)."""

from __future__ import annotations

from typing import Any

from ..context import Context
from ..declared import Rule
from ..records import Incident

# The rules this module raises (fogkeeper.rules.declared): a pack lists those it enforces.
RULES = (
    Rule("incident.overflow", reads=("incident.overflow_open_until_clearance",)),
    Rule("incident.repeat_overflow", reads=("incident.repeat_window",)),
    Rule(
        "incident.written_report_late",
        reads=("incident.written_report_period",),
        obligation="incident.written_report",
        says="Written report of overflow {subject}",
    ),
)


def check(ctx: Context) -> None:
    attributed = [i for i in ctx.incidents if i.attributed]
    for inc in attributed:
        _overflow(ctx, inc)
        _written_report(ctx, inc)
    _repeat(ctx, attributed)


def _overflow(ctx: Context, inc: Incident) -> None:
    rule = "incident.overflow"
    if rule not in ctx.rules:
        return
    article = "An" if inc.kind[:1].lower() in "aeiou" else "A"
    message = (
        f"{article} {inc.kind} on {inc.date} ({inc.id}) was caused or contributed to by the FSE."
    )
    evidence = {"kind": inc.kind, "gallons": inc.gallons}
    if ctx.params["incident.overflow_open_until_clearance"]:
        cleared = ctx.act(inc.clearance_inspection_on)
        ctx.finding(
            rule,
            inc.id,
            inc.date,
            message,
            open=cleared is None,
            resolved_on=cleared,
            evidence=evidence,
        )
    else:
        ctx.finding(
            rule, inc.id, inc.date, message, open=False, resolved_on=inc.date, evidence=evidence
        )


def _written_report(ctx: Context, inc: Incident) -> None:
    rule = "incident.written_report_late"
    if rule not in ctx.rules:
        return
    due = ctx.add(ctx.clamp(inc.date), "incident.written_report_period")
    filed = ctx.act(inc.written_report_on)
    ctx.overdue(
        rule,
        inc.id,
        due,
        filed,
        f"The written report of the {inc.kind} on {inc.date} was due by {due}.",
    )
    if filed is None:
        ctx.plan("incident.written_report", inc.id, due, rule)


def _repeat(ctx: Context, attributed: list[Any]) -> None:
    """Each attributed incident within the window after an earlier one is a repeat overflow,
    open until its own clearance inspection (RULES.md 11.2: the window spans the overflows)."""
    rule = "incident.repeat_overflow"
    if rule not in ctx.rules:
        return
    window = ctx.params.duration("incident.repeat_window")
    for i, later in enumerate(attributed):
        earlier = [a for a in attributed[:i] if later.date <= ctx.cal.add(a.date, window)]
        if not earlier:
            continue
        first = earlier[0]
        cleared = ctx.act(later.clearance_inspection_on)
        ctx.finding(
            rule,
            later.id,
            later.date,
            f"{later.id} on {later.date} followed {first.id} ({first.date}) within {window}: "
            "a repeat overflow caused by the FSE.",
            open=cleared is None,
            resolved_on=cleared,
            evidence={"incidents": [a.id for a in earlier] + [later.id], "window": str(window)},
        )

"""Sewer overflows, spills and blockages attributed to the FSE (RULES.md 9)."""

from __future__ import annotations

from datetime import timedelta

from ..context import Context


def check(ctx: Context) -> None:
    attributed = [i for i in ctx.incidents if i.attributed]
    for inc in attributed:
        _overflow(ctx, inc)
        _written_report(ctx, inc)
    _repeat(ctx, attributed)


def _overflow(ctx: Context, inc) -> None:
    rule = "incident.overflow"
    if not ctx.pack.has(rule):
        return
    article = "An" if inc.kind[:1].lower() in "aeiou" else "A"
    message = (
        f"{article} {inc.kind} on {inc.date} ({inc.id}) was caused or contributed to by the FSE."
    )
    evidence = {"kind": inc.kind, "gallons": inc.gallons}
    if ctx.p["incident.overflow_open_until_clearance"]:
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


def _written_report(ctx: Context, inc) -> None:
    rule = "incident.written_report_late"
    if not ctx.pack.has(rule):
        return
    due = ctx.add(inc.date, "incident.written_report_period")
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


def _repeat(ctx: Context, attributed: list) -> None:
    rule = "incident.repeat_overflow"
    if not ctx.pack.has(rule):
        return
    start = ctx.as_of - timedelta(days=ctx.p["incident.repeat_window_days"])
    recent = [i for i in attributed if i.date >= start]
    count = ctx.p["incident.repeat_count"]
    if len(recent) >= count:
        nth = recent[count - 1]
        ctx.finding(
            rule,
            nth.id,
            nth.date,
            f"{len(recent)} overflows caused by the FSE since {start}: "
            + ", ".join(f"{i.id} ({i.date})" for i in recent)
            + ".",
            evidence={"incidents": [i.id for i in recent]},
        )

"""BMP training of kitchen employees (RULES.md 7)."""

from __future__ import annotations

from ..context import Context


def check(ctx: Context) -> None:
    attended: dict[str, list] = {}
    for t in ctx.trainings:
        for a in t.attendees:
            attended.setdefault(a.employee, []).append((t, a))
    for emp in ctx.employees:
        if not emp.kitchen_duties:
            continue
        left = ctx.act(emp.left_on)
        sessions = [(t, a) for t, a in attended.get(emp.id, ()) if t.date >= emp.hired_on]
        dates = [t.date for t, _ in sessions]
        name = emp.name or emp.id
        _new_hire(ctx, emp, name, dates, left)
        _refresher(ctx, emp, name, dates, left)
        if ctx.pack.has("training.unsigned"):
            for t, a in sessions:
                if not a.signed and (left is None or t.date < left):
                    ctx.finding(
                        "training.unsigned",
                        emp.id,
                        t.date,
                        f"{name} did not sign the attendance record of training {t.id}.",
                        open=False,
                        resolved_on=t.date,
                        evidence={"training": t.id},
                    )


def _new_hire(ctx: Context, emp, name: str, dates: list, left) -> None:
    rule = "training.new_hire_overdue"
    if not ctx.pack.has(rule):
        return
    due = ctx.add(ctx.clamp(emp.hired_on), "training.new_hire_window")
    first = dates[0] if dates else None
    ctx.overdue(
        rule,
        emp.id,
        due,
        first,
        f"{name}, hired on {emp.hired_on}, was due for BMP training by {due}.",
        ends_on=left,
    )
    if first is None and left is None:
        ctx.plan("training.new_hire", emp.id, due, rule)


def _refresher(ctx: Context, emp, name: str, dates: list, left) -> None:
    rule = "training.refresher_overdue"
    if not ctx.pack.has(rule) or not dates:
        return
    period = ctx.p.duration("training.refresher_interval")
    for previous, following in zip(dates, dates[1:] + [None], strict=True):
        due = ctx.cal.add(ctx.clamp(previous), period)
        ctx.overdue(
            rule,
            emp.id,
            due,
            following,
            f"{name}'s refresher training was due by {due}.",
            ends_on=left,
        )
        if following is None and left is None:
            ctx.plan("training.refresher", emp.id, due, rule)

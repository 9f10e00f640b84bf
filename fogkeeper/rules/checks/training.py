"""BMP training of kitchen employees (RULES.md 7)."""

from __future__ import annotations

from bisect import bisect_left

from ..context import Context

NEW_HIRE = "training.new_hire_overdue"
REFRESHER = "training.refresher_overdue"
UNSIGNED = "training.unsigned"


def check(ctx: Context) -> None:
    has = ctx.pack.has
    window = ctx.p.duration("training.new_hire_window") if has(NEW_HIRE) else None
    interval = ctx.p.duration("training.refresher_interval") if has(REFRESHER) else None
    unsigned = has(UNSIGNED)
    attended: dict[str, list] = {}
    for t in ctx.trainings:
        for a in t.attendees:
            attended.setdefault(a.employee, []).append((t.date, t.id, a.signed))
    for emp in ctx.employees:
        if not emp.kitchen_duties:
            continue
        left = ctx.act(emp.left_on)
        attendances = attended.get(emp.id, ())
        # Only training on or after the hire date counts; a missing signature counts always.
        sessions = [s for s in attendances if s[0] >= emp.hired_on]
        dates = [s[0] for s in sessions]
        if window is not None:
            _new_hire(ctx, emp, window, dates, left)
        if interval is not None and dates:
            _refresher(ctx, emp, interval, dates, left)
        if unsigned:
            for when, training_id, signed in attendances:
                if not signed and (left is None or when < left) and when >= ctx.cutoff:
                    ctx.finding(
                        UNSIGNED,
                        emp.id,
                        when,
                        f"{emp.name or emp.id} did not sign the attendance record of training "
                        f"{training_id}.",
                        open=False,
                        resolved_on=when,
                        evidence={"training": training_id},
                    )


def _new_hire(ctx: Context, emp, window, dates: list, left) -> None:
    due = ctx.cal.add(ctx.clamp(emp.hired_on), window)
    first = dates[0] if dates else None
    if first is not None and first <= due:
        return
    ctx.overdue(
        NEW_HIRE,
        emp.id,
        due,
        first,
        lambda: (
            f"{emp.name or emp.id}, hired on {emp.hired_on}, was due for BMP training by {due}."
        ),
        ends_on=left,
    )
    if first is None and left is None:
        ctx.plan("training.new_hire", emp.id, due, NEW_HIRE)


def _refresher(ctx: Context, emp, interval, dates: list, left) -> None:
    # A past gap is reported only when closed within the look-back: start from the gap
    # that the first training on or after the cutoff closed.
    start = max(0, bisect_left(dates, ctx.cutoff) - 1)
    add, clamp = ctx.cal.add, ctx.clamp
    last = len(dates) - 1
    for i in range(start, last + 1):
        due = add(clamp(dates[i]), interval)
        following = dates[i + 1] if i < last else None
        if following is not None and following <= due:
            continue
        ctx.overdue(
            REFRESHER,
            emp.id,
            due,
            following,
            lambda due=due: f"{emp.name or emp.id}'s refresher training was due by {due}.",
            ends_on=left,
        )
    if left is None:  # the loop ended on the last training (start <= last)
        ctx.plan("training.refresher", emp.id, due, REFRESHER)

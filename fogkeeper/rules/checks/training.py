"""BMP training of kitchen employees (RULES.md 7)."""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from datetime import date
from typing import Any

from ..context import Context
from ..declared import Rule
from ..records import Employee

NEW_HIRE = "training.new_hire_overdue"
REFRESHER = "training.refresher_overdue"
UNSIGNED = "training.unsigned"

# The rules this module raises (fogkeeper.rules.declared): a pack lists those it enforces.
RULES = (
    Rule(
        NEW_HIRE,
        reads=("training.new_hire_window",),
        obligation="training.new_hire",
        says="New-hire BMP training of {subject}",
        reminded=True,
    ),
    Rule(
        REFRESHER,
        reads=("training.refresher_interval",),
        obligation="training.refresher",
        says="BMP refresher training of {subject}",
        reminded=True,
    ),
    Rule(UNSIGNED),
)


def check(ctx: Context) -> None:
    has = ctx.pack.has
    window = ctx.params.duration("training.new_hire_window") if has(NEW_HIRE) else None
    interval = ctx.params.duration("training.refresher_interval") if has(REFRESHER) else None
    unsigned = has(UNSIGNED)
    attended, not_signed = _attendances(ctx)
    effective = ctx.effective
    # a training's refresher falls due on the same day whoever attended it
    due_after = {}
    if interval is not None:
        after = ctx.cal.sums(interval)
        days = {t.date for t in ctx.trainings}
        due_after = {d: after[d if d >= effective else effective] for d in days}
    hire_due = ctx.cal.sums(window) if window is not None else None
    as_of = ctx.as_of
    if unsigned and not_signed:
        _unsigned_entries(ctx, not_signed)
    for emp in ctx.employees:
        if not emp.kitchen_duties:
            continue
        left = emp.left_on
        if left is not None and left > as_of:
            left = None  # not left yet
        # Only training on or after the hire date counts; a missing signature counts always.
        hired = emp.hired_on
        dates = attended.get(emp.id, ())
        if dates and dates[0] < hired:
            dates = dates[bisect_left(dates, hired) :]
        if hire_due is not None:
            due = hire_due[hired if hired >= effective else effective]
            if not dates or dates[0] > due:  # else trained in time
                _new_hire(ctx, emp, due, dates[0] if dates else None, left)
        if interval is not None and dates:
            _refresher(ctx, emp, due_after, dates, left)


def _attendances(ctx: Context) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """Employee -> the dates of their trainings; employee -> [(date, training)] for each
    attendance record they did not sign."""
    attended: dict[str, list[Any]] = defaultdict(list)
    not_signed: dict[str, list[Any]] = {}
    for t in ctx.trainings:
        day = t.date
        for a in t.attendees:
            attended[a.employee].append(day)
            if not a.signed:
                not_signed.setdefault(a.employee, []).append((day, t.id))
    return attended, not_signed


def _unsigned_entries(ctx: Context, not_signed: dict[Any, Any]) -> None:
    """Every entry of the log carries a signature, whoever attended: with or without kitchen
    duties, a contractor, one not yet hired or since gone (RULES.md 11.15, 12.9)."""
    names = {e.id: e.name or e.id for e in ctx.case.employees}
    for employee in sorted(not_signed):
        for when, training_id in not_signed[employee]:
            if when < ctx.cutoff:
                continue
            ctx.finding(
                UNSIGNED,
                employee,
                when,
                f"{names.get(employee, employee)} did not sign the attendance record of "
                f"training {training_id}.",
                open=False,
                resolved_on=when,
                evidence={"training": training_id},
            )


def _new_hire(
    ctx: Context, emp: Employee, due: date, first: date | None, left: date | None
) -> None:
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


def _refresher(
    ctx: Context,
    emp: Employee,
    due_after: dict[date, date],
    dates: list[date],
    left: date | None,
) -> None:
    # A past gap is reported only when closed within the look-back: start from the gap
    # that the first training on or after the cutoff closed.
    start = max(0, bisect_left(dates, ctx.cutoff) - 1)
    last = len(dates) - 1
    for i in range(start, last):
        due, following = due_after[dates[i]], dates[i + 1]
        if following > due:
            _refresher_overdue(ctx, emp, due, following, left)
    due = due_after[dates[last]]
    if left is None:
        if ctx.as_of > due:  # else not yet due: nothing to report
            _refresher_overdue(ctx, emp, due, None, left)
        ctx.plan("training.refresher", emp.id, due, REFRESHER)
    else:
        _refresher_overdue(ctx, emp, due, None, left)


def _refresher_overdue(
    ctx: Context, emp: Employee, due: date, following: date | None, left: date | None
) -> None:
    ctx.overdue(
        REFRESHER,
        emp.id,
        due,
        following,
        lambda: f"{emp.name or emp.id}'s refresher training was due by {due}.",
        ends_on=left,
    )

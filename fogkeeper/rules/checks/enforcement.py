"""Enforcement actions: the deadlines they set, the money that accrues, and their defects
(RULES.md 10). What each action type sets is data in the pack's `enforcement.yaml`;
this module reads it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from fogkeeper.formats import unit_one

from ..context import ONE_DAY, Context
from ..errors import ParameterNotInForce
from ..packmodel import ActionSpec, DeadlineSpec, ParameterValue
from ..records import Action
from ..report import Accrual, Deadline


def _date_of(value: date | datetime) -> date:
    """The day of a date field or a date-time field (a hearing's start)."""
    return value.date() if isinstance(value, datetime) else value


def check(ctx: Context, with_findings: bool) -> tuple[list[Deadline], list[Accrual]]:
    deadlines: list[Deadline] = []
    accruals: list[Accrual] = []
    replaced = _replaced(ctx)
    for action in sorted(ctx.case_actions, key=lambda a: a.id):
        spec = ctx.pack.actions[action.type]
        fields = _as_of(ctx, spec, action)
        if fields.get(spec.date_field) is None:
            continue  # not taken yet on as_of
        values = _deadlines(ctx, spec, action, fields, deadlines, action.id in replaced)
        checks = spec.checks
        if "daily_fine" in checks and action.id not in replaced:
            accruals.extend(_daily_fine(ctx, action, fields, checks["daily_fine"]))
        if not with_findings:
            continue
        since = _date_of(fields[spec.date_field])
        if "hearing_window" in checks:
            _hearing_window(ctx, action, fields, values, since, checks["hearing_window"])
        if "penalty_cap" in checks:
            _penalty_cap(ctx, action, fields, since, checks["penalty_cap"])
        if "compliance_schedule" in checks:
            _compliance_schedule(ctx, action, fields, since, checks["compliance_schedule"])
        if "delinquency" in checks:
            _delinquency(ctx, action, fields, values, checks["delinquency"])
    return deadlines, accruals


def _replaced(ctx: Context) -> set[str]:
    """The orders replaced by an order on their appeal taken by as_of (RULES.md 12.8)."""
    out = set()
    for action in ctx.case_actions:
        spec = ctx.pack.actions[action.type]
        field = spec.appeal.get("replaced_by") if spec.appeal else None
        if field is None or action.fields.get(field) is None:
            continue
        taken = action.fields.get(spec.date_field)
        if taken is not None and _date_of(taken) <= ctx.as_of:
            out.add(action.fields[field])
    return out


def _as_of(ctx: Context, spec: ActionSpec, action: Action) -> dict[str, Any]:
    """The action's fields with acts after as_of removed (planned dates stay)."""
    fields = {}
    for name, value in action.fields.items():
        kind = spec.fields[name].kind
        if kind in ("date", "datetime") and _date_of(value) > ctx.as_of:
            continue
        fields[name] = value
    return fields


def _deadlines(
    ctx: Context,
    spec: ActionSpec,
    action: Action,
    fields: dict[str, Any],
    out: list[Deadline],
    replaced: bool = False,
) -> dict[Any, Any]:
    values: dict[Any, Any] = dict(fields)
    paid = fields.get("paid_on")
    # a replaced order is never final, nor is anything that runs from its finality
    final = spec.appeal.get("final") if spec.appeal else None
    suspended: set[str] = {final} if replaced and final else set()
    for d in spec.deadlines:
        if d.when and any(fields.get(k) != v for k, v in d.when.items()):
            continue
        if d.start in suspended or d.name in suspended:
            suspended.add(d.name)
            continue
        start = values.get(d.start)
        if start is None:
            continue
        appeal = _appeal(spec, d, fields, values)
        if appeal == "pending":
            suspended.add(d.name)
            continue
        if appeal is not None:
            when = appeal
        elif d.add is None:
            when = ctx.cal.roll_forward(_date_of(start)) if d.roll else start
        else:
            when = ctx.cal.add(start, ctx.params.duration(d.add), d.roll)
        if d.extension and appeal is None:
            when = _extended(ctx, d.extension, fields, start, when)
        values[d.name] = when
        values[(d.name, d.kind)] = when
        if d.unless_paid and paid is not None and paid <= _date_of(when):
            continue
        out.append(Deadline(action.id, d.name, when, d.kind, d.citation))
    return values


def _appeal(
    spec: ActionSpec, d: DeadlineSpec, fields: dict[str, Any], values: dict[Any, Any]
) -> Any:
    """For the deadline that makes an order final: "pending" while an appeal filed in time is
    undecided, the decision date once decided, else None (RULES.md 11.4)."""
    cfg = spec.appeal
    if cfg is None or d.name != cfg.get("final"):
        return None
    filed, last_day = fields.get(cfg["filed"]), values.get(cfg["deadline"])
    if filed is None or last_day is None or filed > _date_of(last_day):
        return None
    decided = fields.get(cfg["decided"])
    return "pending" if decided is None else decided


def _extended(
    ctx: Context, ext: dict[str, Any], fields: dict[str, Any], start: Any, when: Any
) -> Any:
    """A later deadline when a condition holds, e.g. the record of proceedings requested in
    time and delivered (SC 13.30.090(E))."""
    requested = fields.get(ext["requested"])
    delivered = fields.get(ext["from"])
    if requested is None or delivered is None:
        return when
    if requested > ctx.cal.add(_date_of(start), ctx.params.duration(ext["within"])):
        return when
    later = ctx.cal.add(delivered, ctx.params.duration(ext["add"]), bool(ext.get("roll")))
    return max(when, later)


def _daily_fine(
    ctx: Context, action: Action, fields: dict[str, Any], cfg: dict[str, Any]
) -> list[Accrual]:
    """The fine for each day after the correction date until corrected, at the rate in force
    on each day: a new council resolution changes the rate from the day it takes effect, so
    the days on each side of it are an accrual of their own, citing their resolution."""
    after = fields.get(cfg["after"])
    if after is None:
        return []
    start = after + ONE_DAY
    until = fields.get(cfg["until"])
    through = min(until - ONE_DAY, ctx.as_of) if until is not None else ctx.as_of
    if through < start:
        return []
    out = []
    for first, last, value in _periods(ctx, cfg["rate"], start, through):
        rate = Decimal(str(value.value))
        days = (last - first).days + 1
        citation = _with_resolution(cfg["citation"], value.resolution) or ""
        out.append(Accrual(action.id, cfg["rule"], days, rate, rate * days, citation, first, last))
    return out


def _periods(
    ctx: Context, name: str, start: date, through: date
) -> Iterator[tuple[date, date, ParameterValue]]:
    """(first day, last day, value) of each stretch of start..through over which one dated
    value of the parameter is in force; before its first value, the first one."""
    values = ctx.pack.parameters[name].values
    changes = [v for v in values[1:] if start < v.effective <= through]
    current = _value_on(ctx, name, start)
    first = start
    for v in changes:
        yield first, v.effective - ONE_DAY, current
        first, current = v.effective, v
    yield first, through, current


def _value_on(ctx: Context, name: str, day: date) -> ParameterValue:
    """The dated value in force on `day`, or the first one for a day before it."""
    param = ctx.pack.parameters[name]
    try:
        return param.value_on(day)
    except ParameterNotInForce:
        return param.values[0]


def _with_resolution(citation: str | None, resolution: str | None) -> str | None:
    """A section and, when a council resolution set the amount, the resolution beside it."""
    if resolution is None:
        return citation
    return f"{citation}; {resolution}" if citation else resolution


def _hearing_window(
    ctx: Context,
    action: Action,
    fields: dict[str, Any],
    values: dict[Any, Any],
    since: date,
    cfg: dict[str, Any],
) -> None:
    hearing_on = fields.get(cfg["field"])
    if hearing_on is None:
        return
    earliest = values.get((cfg["window"], "earliest"))
    latest = values.get((cfg["window"], "deadline"))
    problems = []
    if (earliest and hearing_on < earliest) or (latest and hearing_on > latest):
        bounds = f"not before {earliest}" + (f" and not after {latest}" if latest else "")
        problems.append(
            f"The hearing set for {hearing_on} is outside the notice window ({bounds})."
        )
    continuance: Any = cfg.get("continuance")
    continued_to = fields.get(continuance["field"]) if continuance else None
    if continued_to is not None:
        limit = ctx.params.duration(continuance["limit"])
        last = ctx.cal.add(hearing_on, limit)
        if continued_to > last:
            problems.append(
                f"The hearing of {hearing_on} was continued to {continued_to}, beyond the "
                f"{limit} the hearing may be continued in total (to {last})."
            )
    if problems:
        evidence = {
            "hearing_on": hearing_on.isoformat(),
            "earliest": earliest.isoformat() if earliest else None,
            "latest": latest.isoformat() if latest else None,
        }
        if continued_to is not None:
            evidence.update(
                continued_to=continued_to.isoformat(), continuance_latest=last.isoformat()
            )
        ctx.finding(
            cfg["rule"],
            action.id,
            since,
            " ".join(problems),
            evidence=evidence,
            citation=cfg.get("citation"),
        )


def _money(amount: Any) -> str:
    """An amount as the pages and letters show money: $1,234.00."""
    return f"${Decimal(str(amount)):,.2f}"


def _penalty_cap(
    ctx: Context, action: Action, fields: dict[str, Any], since: date, cfg: dict[str, Any]
) -> None:
    """The amount against the class cap in force on the order's date (Pack.penalty_cap): a
    cap set by council resolution is the one adopted by then, and the finding cites it."""
    cls = fields["class"]
    cap = ctx.pack.penalty_cap(cls, since)
    if cap is None:  # the case file's reader refuses a class the pack has no cap for
        return
    per = cap.per
    quantity = Decimal(fields[per])
    amount = fields["amount"]
    if cap.exceeded_by(amount, quantity):
        maximum = cap.maximum(quantity)
        under = f" ({cap.resolution})" if cap.resolution else ""
        ctx.finding(
            cfg["rule"],
            action.id,
            since,
            f"The penalty of {_money(amount)} exceeds the {cls} cap of "
            f"{_money(cap.amount)} a {unit_one(per)}{under} × {quantity} = {_money(maximum)}.",
            evidence={
                "cap": maximum,
                "amount": amount,
                "class": cls,
                "per": per,
                "quantity": quantity,
                "cap_reference": cap.reference,
            },
            citation=_with_resolution(cfg.get("citation"), cap.resolution),
        )


def _compliance_schedule(
    ctx: Context, action: Action, fields: dict[str, Any], since: date, cfg: dict[str, Any]
) -> None:
    owed = fields.get("balance_due") or Decimal(0)
    allowed = ctx.params[cfg["arrangement_allowed"]] and fields.get("payment_arrangement")
    if owed > 0 and not allowed:
        ctx.finding(
            cfg["precondition_rule"],
            action.id,
            since,
            f"A compliance schedule was entered on {since} while {_money(owed)} was owed"
            + (
                " without an approved payment arrangement."
                if ctx.params[cfg["arrangement_allowed"]]
                else "."
            ),
            evidence={"balance_due": owed},
        )
    for m in sorted(action.milestones, key=lambda m: (m.due, m.id)):
        ctx.overdue(
            cfg["missed_rule"],
            action.id,
            m.due,
            ctx.act(m.met_on),
            lambda: f"Milestone {m.id} of compliance schedule {action.id} was due on {m.due}.",  # noqa: B023
            evidence={"milestone": m.id},
        )


def _delinquency(
    ctx: Context,
    action: Action,
    fields: dict[str, Any],
    values: dict[Any, Any],
    cfg: dict[str, Any],
) -> None:
    due = values.get(cfg["after"])
    if due is None:
        return
    ctx.overdue(
        cfg["rule"],
        action.id,
        due,
        fields.get(cfg["paid"]),
        lambda: f"Invoice {action.id} for {_money(fields.get('amount', 0))} was payable by {due}.",
        evidence={"amount": fields.get("amount")},
    )

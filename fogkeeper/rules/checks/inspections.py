"""The agency's annual inspection (RULES.md 5, `inspection.annual_due`)."""

from __future__ import annotations

from datetime import date

from ..context import ONE_DAY, Context
from ..declared import Rule

REFUSED = "inspection.access_refused"

# The rules this module raises (fogkeeper.rules.declared): a pack lists those it enforces.
RULES = (
    Rule(
        "inspection.annual_due",
        reads=("inspection.annual_interval", "inspection.annual_scope"),
        obligation="inspection.annual",
        says="Annual inspection by the agency",
        agency_does=True,
    ),
)


def check(ctx: Context) -> None:
    rule = "inspection.annual_due"
    if rule not in ctx.rules or not ctx.operating:
        return
    refused = {
        i.id for i in ctx.inspections for a in i.answers if a.item == REFUSED and not a.compliant
    }
    counted = [i.date for i in ctx.inspections if i.id not in refused]
    last = counted[-1] if counted else None
    permit_issued = ctx.permit.issued_on if ctx.permit is not None else None
    if ctx.params["inspection.annual_scope"] == "establishment":
        base = last or permit_issued or ctx.est.opened_on
        _due(ctx, rule, ctx.est_id, base, last)
    else:
        for device in ctx.devices:
            base = last or permit_issued or max(ctx.est.opened_on, device.installed_on)
            _due(ctx, rule, device.id, base, last)


def _due(ctx: Context, rule: str, subject: str, base: date, last: date | None) -> None:
    due = ctx.add(ctx.clamp(base), "inspection.annual_interval")
    ctx.plan("inspection.annual", subject, due, rule)
    if ctx.as_of > due:
        since_text = f"since {last}" if last else "ever"
        ctx.finding(
            rule,
            subject,
            due + ONE_DAY,
            f"No agency inspection of {subject} {since_text}; one was due by {due}.",
            due=due,
        )

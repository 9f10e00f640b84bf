"""Permits: missing, ended by a new operator, expired, renewal, change notices (RULES.md 4)."""

from __future__ import annotations

import re

from ..context import ONE_DAY, Context

_SPACES = re.compile(r"\s+")


def _same_holder(a: str, b: str) -> bool:
    return _SPACES.sub(" ", a.strip()).casefold() == _SPACES.sub(" ", b.strip()).casefold()


def check(ctx: Context) -> None:
    est, permit = ctx.est, ctx.permit
    if permit is None:
        if ctx.operating and ctx.pack.has("permit.missing"):
            title = ctx.pack.titles.get("permit", "permit")
            ctx.finding(
                "permit.missing",
                ctx.est_id,
                max(est.opened_on, ctx.effective),
                f"{est.name or ctx.est_id} operates without a {title}.",
            )
    elif not _same_holder(permit.holder, est.operator.name):
        if ctx.pack.has("permit.new_operator"):
            ctx.finding(
                "permit.new_operator",
                permit.number,
                est.operator.since,
                f"Permit {permit.number} was issued to {permit.holder}; it ended when "
                f"{est.operator.name} took over on {est.operator.since}.",
                evidence={"holder": permit.holder, "operator": est.operator.name},
            )
    else:
        _expiry(ctx, permit)
    _changes(ctx)


def _expiry(ctx: Context, permit) -> None:
    applied = ctx.act(permit.renewal_applied_on)
    keeps = ctx.p.get("permit.renewal_pending_keeps_permit", False)
    pending = keeps and applied is not None and applied <= permit.expires_on
    if ctx.as_of > permit.expires_on and not pending and ctx.pack.has("permit.expired"):
        ctx.finding(
            "permit.expired",
            permit.number,
            permit.expires_on + ONE_DAY,
            f"Permit {permit.number} expired on {permit.expires_on}.",
            due=permit.expires_on,
        )
    if ctx.pack.has("permit.renewal_late"):
        due = ctx.cal.subtract(permit.expires_on, ctx.p.duration("permit.renewal_application_lead"))
        message = f"The renewal application for permit {permit.number} was due on {due}."
        if applied is not None and applied > due:
            ctx.finding(
                "permit.renewal_late",
                permit.number,
                due + ONE_DAY,
                message,
                open=False,
                due=due,
                resolved_on=applied,
            )
        elif applied is None and ctx.as_of > due and ctx.as_of <= permit.expires_on:
            ctx.finding("permit.renewal_late", permit.number, due + ONE_DAY, message, due=due)
        if applied is None:
            ctx.plan("permit.renewal_application", permit.number, due, "permit.renewal_late")
    if ctx.pack.has("permit.expired"):
        ctx.plan("permit.expiry", permit.number, permit.expires_on, "permit.expired")


def _changes(ctx: Context) -> None:
    if not ctx.pack.has("permit.change_not_notified"):
        return
    lead = ctx.p.duration("permit.change_notice_lead")
    for change in sorted(ctx.est.changes, key=lambda c: (c.date, c.kind)):
        due = ctx.cal.subtract(change.date, lead)
        notified = ctx.act(change.notified_on)
        ctx.overdue(
            "permit.change_not_notified",
            ctx.permit_subject(),
            due,
            notified,
            f"Notice of the {change.kind} planned for {change.date} was due by {due}.",
            evidence={"change": change.kind, "date": change.date.isoformat()},
        )

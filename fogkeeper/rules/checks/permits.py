"""Permits: missing, ended by a new operator, expired, renewal, term, suspension and
revocation, change notices (RULES.md 4, 11.6-11.9)."""

from __future__ import annotations

import re
from datetime import date

from ..context import ONE_DAY, Context
from ..declared import Rule
from ..records import Permit

# The rules this module raises (fogkeeper.rules.declared): a pack lists those it enforces.
RULES = (
    Rule("permit.missing"),
    Rule("permit.new_operator"),
    Rule(
        "permit.expired",
        obligation="permit.expiry",
        says="{permit} {subject} expires",
        reminded=True,
    ),
    Rule(
        "permit.renewal_late",
        reads=("permit.renewal_application_lead",),
        obligation="permit.renewal_application",
        says="Renewal application for {permit} {subject}",
        reminded=True,
    ),
    Rule("permit.change_not_notified", reads=("permit.change_notice_lead",)),
    Rule("permit.term_invalid", reads=("permit.max_term",)),
    Rule("permit.suspended"),
    Rule("permit.revoked"),
)

_SPACES = re.compile(r"\s+")


def _same_holder(a: str, b: str) -> bool:
    return _SPACES.sub(" ", a.strip()).casefold() == _SPACES.sub(" ", b.strip()).casefold()


def check(ctx: Context) -> None:
    est, permit = ctx.est, ctx.permit
    if permit is not None:
        _suspended(ctx, permit)
    if permit is not None and ctx.revoked_on is not None:
        _revoked(ctx, permit, ctx.revoked_on)
    elif permit is None:
        if ctx.operating and "permit.missing" in ctx.rules:
            title = ctx.pack.titles.get("permit", "permit")
            ctx.finding(
                "permit.missing",
                ctx.est_id,
                max(est.opened_on, ctx.effective),
                f"{est.name or ctx.est_id} operates without a {title}.",
            )
    elif _ended_by_new_operator(ctx, permit):
        if "permit.new_operator" in ctx.rules:
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
    if permit is not None and ctx.revoked_on is None:
        _term(ctx, permit)
    _changes(ctx)


def _ended_by_new_operator(ctx: Context, permit: Permit) -> bool:
    """Only an operator who took over after the permit was issued ends it; the Town's permit
    in the business's name stays with the business (RULES.md 11.9)."""
    est = ctx.est
    if est.operator.since <= permit.issued_on or _same_holder(permit.holder, est.operator.name):
        return False
    by_name = ctx.params.get("permit.holder_business_name", False)
    return not (by_name and est.name and _same_holder(permit.holder, est.name))


def _term(ctx: Context, permit: Permit) -> None:
    rule = "permit.term_invalid"
    if rule not in ctx.rules:
        return
    term = ctx.params.duration("permit.max_term")
    latest = ctx.cal.add(permit.issued_on, term)
    if permit.expires_on > latest:
        ctx.finding(
            rule,
            permit.number,
            max(permit.issued_on, ctx.effective),
            f"Permit {permit.number}, issued on {permit.issued_on}, expires on "
            f"{permit.expires_on}: a permit runs at most {term} (to {latest}).",
            evidence={"max_term": str(term), "latest_expiry": latest.isoformat()},
        )


def _suspended(ctx: Context, permit: Permit) -> None:
    rule = "permit.suspended"
    start = ctx.act(permit.suspended_from)
    if start is None or rule not in ctx.rules:
        return
    ends = [] if permit.suspended_until is None else [permit.suspended_until + ONE_DAY]
    if ctx.revoked_on is not None:
        ends.append(max(ctx.revoked_on, start))
    ended = min(ends) if ends else None
    open_ = ended is None or ended > ctx.as_of
    until = f" through {permit.suspended_until}" if permit.suspended_until else ""
    ctx.finding(
        rule,
        permit.number,
        start,
        f"Permit {permit.number} is suspended from {start}{until}: no right to discharge.",
        open=open_,
        resolved_on=None if open_ else ended,
    )


def _revoked(ctx: Context, permit: Permit, revoked_on: date) -> None:
    if "permit.revoked" not in ctx.rules:
        return
    ctx.finding(
        "permit.revoked",
        permit.number,
        revoked_on,
        f"Permit {permit.number} was revoked on {revoked_on}; "
        f"{ctx.est.name or ctx.est_id} holds no permit.",
    )


def _expiry(ctx: Context, permit: Permit) -> None:
    applied = ctx.act(permit.renewal_applied_on)
    keeps = ctx.params.get("permit.renewal_pending_keeps_permit", False)
    timely = keeps and applied is not None and applied <= permit.expires_on
    # A timely application keeps the permit until the renewal is denied (RULES.md 11.7).
    denied = ctx.act(permit.renewal_denied_on) if timely else None
    expired_from = permit.expires_on + ONE_DAY
    if denied is not None:
        expired_from = max(expired_from, denied)
    lapsed = ctx.as_of >= expired_from and (not timely or denied is not None)
    if lapsed and "permit.expired" in ctx.rules:
        ctx.finding(
            "permit.expired",
            permit.number,
            expired_from,
            f"Permit {permit.number} expired on {permit.expires_on}"
            + (f"; its renewal was denied on {denied}." if denied else "."),
            due=permit.expires_on,
        )
    if "permit.renewal_late" in ctx.rules:
        lead = ctx.params.duration("permit.renewal_application_lead")
        due = ctx.cal.subtract(permit.expires_on, lead)
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
    if "permit.expired" in ctx.rules:
        ctx.plan("permit.expiry", permit.number, permit.expires_on, "permit.expired")


def _changes(ctx: Context) -> None:
    if "permit.change_not_notified" not in ctx.rules:
        return
    lead = ctx.params.duration("permit.change_notice_lead")
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

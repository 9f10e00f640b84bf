"""Food grinders and waste cooking oil (RULES.md 6)."""

from __future__ import annotations

from datetime import timedelta

from ..context import ONE_DAY, Context
from ..declared import Rule

# The rules this module raises (fogkeeper.rules.declared): a pack lists those it enforces.
RULES = (
    Rule("food_grinder.prohibited", reads=("food_grinder.scope", "food_grinder.existing_grace")),
    Rule(
        "yellow_grease.collection_overdue",
        obligation="yellow_grease.collection",
        says="Waste cooking oil pickup",
    ),
)


def check(ctx: Context) -> None:
    _food_grinder(ctx)
    _yellow_grease(ctx)


def _food_grinder(ctx: Context) -> None:
    est = ctx.est
    installed = ctx.act(est.food_grinder_installed_on)
    if not est.food_grinder or "food_grinder.prohibited" not in ctx.rules:
        return
    if est.food_grinder_installed_on is not None and installed is None:
        return  # installed after as_of: not there yet
    name = est.name or ctx.est_id
    if ctx.params["food_grinder.scope"] == "all":
        since = max(d for d in (ctx.effective, est.opened_on, installed) if d is not None)
        ctx.finding(
            "food_grinder.prohibited",
            ctx.est_id,
            since,
            f"{name} has a food grinder discharging to the sewer.",
        )
    elif installed is not None and installed > ctx.effective:
        ctx.finding(
            "food_grinder.prohibited",
            ctx.est_id,
            installed,
            f"{name} installed a food grinder on {installed}, after the ordinance took effect.",
        )
    else:
        due = ctx.add(ctx.effective, "food_grinder.existing_grace")
        ctx.finding(
            "food_grinder.prohibited",
            ctx.est_id,
            due + ONE_DAY,
            f"{name}'s existing food grinder had to be removed by {due}.",
            due=due,
        )


def _yellow_grease(ctx: Context) -> None:
    rule = "yellow_grease.collection_overdue"
    permit = ctx.permit
    if rule not in ctx.rules or permit is None or not permit.yellow_grease_frequency_days:
        return
    freq = permit.yellow_grease_frequency_days
    last = ctx.last_pickup()
    base = last if last is not None else permit.issued_on
    due = ctx.clamp(base) + timedelta(days=freq)
    ctx.plan("yellow_grease.collection", ctx.est_id, due, rule)
    if ctx.as_of > due:
        ctx.finding(
            rule,
            ctx.est_id,
            due + ONE_DAY,
            f"Waste cooking oil was due for collection on {due} (every {freq} days).",
            due=due,
            evidence={"frequency_days": freq},
        )

"""Samples of the discharge against their limits (RULES.md 11.12)."""

from __future__ import annotations

from typing import Any

from ..casefile import sample_limits
from ..context import Context
from ..declared import Rule
from ..records import Sample

RULE = "discharge.limit_exceeded"

# The rules this module raises (fogkeeper.rules.declared): a pack lists those it enforces.
RULES = (Rule(RULE),)


def check(ctx: Context) -> None:
    if RULE not in ctx.rules or not ctx.samples:
        return
    limits = sample_limits(ctx.pack, ctx.permit, ctx.as_of)
    series: dict[tuple[str, str], list[Any]] = {}
    for sample in ctx.samples:
        if sample.parameter in limits:
            subject = sample.device or ctx.est_id
            series.setdefault((sample.parameter, subject), []).append(sample)
    for (parameter, subject), samples in sorted(series.items()):
        _exceedances(ctx, subject, limits[parameter], samples)


def _exceedances(ctx: Context, subject: str, limit: dict[Any, Any], samples: list[Any]) -> None:
    """One finding from a sample above the limit until a later-dated sample within it."""
    high = None
    for sample in samples:
        over = sample.value > limit["max"]
        if high is None and over:
            high = sample
        elif high is not None and not over and sample.date > high.date:
            _report(ctx, subject, limit, high, cured=sample)
            high = None
    if high is not None:
        _report(ctx, subject, limit, high, cured=None)


def _report(
    ctx: Context, subject: str, limit: dict[Any, Any], high: Sample, cured: Sample | None
) -> None:
    unit = limit["unit"]
    ctx.finding(
        RULE,
        subject,
        high.date,
        f"Sample {high.id} of {subject} on {high.date}: {high.parameter} {high.value:g} {unit}, "
        f"over the limit of {limit['max']:g} {unit}.",
        open=cured is None,
        resolved_on=None if cured is None else cured.date,
        evidence={
            "sample": high.id,
            "parameter": high.parameter,
            "value": high.value,
            "limit": limit["max"],
            "unit": unit,
            "method": high.method,
            "cured_by": None if cured is None else cured.id,
        },
    )

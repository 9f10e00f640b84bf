"""Reads of inspections: the accumulation limit a device is measured against, and the
discharge limits a sample is held to (the pack's, and over them the permit's, read through
the establishment's permits)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from fogkeeper.rules.errors import ParameterNotInForce
from fogkeeper.rules.packs import Pack

from .models import Inspection

DISCHARGE_LIMITS = "discharge.limits"
ACCUMULATION_RULE = "gcd.accumulation_over_limit"
ACCUMULATION_LIMIT = "gcd.accumulation_limit"
ACCUMULATION_KINDS = "gcd.accumulation_device_kinds"


def accumulation_limit(pack: Pack, kind: str, on: date):
    """The pack's accumulation limit (a share of the design depth, with its reference) in force
    on `on` for this kind of device; None where the pack has no such rule or limit, or the
    rule does not apply to the kind."""
    if not pack.has(ACCUMULATION_RULE) or ACCUMULATION_LIMIT not in pack.parameters:
        return None
    try:
        kinds = (
            pack.param(ACCUMULATION_KINDS, on) if ACCUMULATION_KINDS in pack.parameters else None
        )
        if kinds is not None and kind not in kinds:
            return None
        return pack.parameters[ACCUMULATION_LIMIT].value_on(on)
    except ParameterNotInForce:
        return None


def discharge_limits(
    establishment, pack: Pack, on: date, permits: list | None = None
) -> dict[str, dict[str, Any]]:
    """Parameter -> {max, unit, source}: the pack's discharge limits in force on `on`, and over
    them the limits of the last permit issued by then, as the engine reads them (RULES.md
    11.12). `source` says whose limit it is (the pack's reference, or the permit). `permits`:
    the establishment's permits newest issued first, where a page has read them already."""
    on = max(on, pack.effective)
    limits: dict[str, dict[str, Any]] = {}
    try:
        found = pack.parameters[DISCHARGE_LIMITS].value_on(on)
    except (KeyError, ParameterNotInForce):
        found = None
    if found is not None:
        for parameter, limit in (found.value or {}).items():
            limits[parameter] = {**limit, "source": found.reference}
    if permits is not None:
        permit = next((p for p in permits if p.issued_on <= on), None)
    else:
        permit = (
            establishment.permits.filter(issued_on__lte=on)
            .only("number", "discharge_limits")
            .order_by("-issued_on", "-pk")
            .first()
        )
    title = pack.titles.get("permit", "permit")
    if permit is not None:
        for parameter, limit in (permit.discharge_limits or {}).items():
            limits[parameter] = {**limit, "source": f"{title} {permit.number}"}
    for limit in limits.values():
        limit["max"] = Decimal(str(limit["max"]))
    return limits


def inspection_code(establishment, day: date) -> str:
    """The number an inspection of `establishment` on `day` is given when the inspector types
    none: the establishment's code and the day (`FSE-0042-20250630`, the field app's rule,
    web/static/web/field/form.js), then `-2`, `-3` while the agency has used it (inspection
    numbers are the agency's, one each)."""
    base = f"{establishment.code}-{day:%Y%m%d}"
    taken = set(
        Inspection.objects.filter(
            establishment__agency_id=establishment.agency_id, code__startswith=base
        ).values_list("code", flat=True)
    )
    n, code = 1, base
    while code in taken:
        n += 1
        code = f"{base}-{n}"
    return code

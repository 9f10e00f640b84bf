"""Reads of inspections and samples."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from fogkeeper.permits.models import Permit
from fogkeeper.rules.errors import ParameterNotInForce
from fogkeeper.rules.packs import Pack

DISCHARGE_LIMITS = "discharge.limits"


def discharge_limits(establishment, pack: Pack, on: date) -> dict[str, dict[str, Any]]:
    """Parameter -> {max, unit, source}: the pack's discharge limits in force on `on`, and over
    them the limits of the last permit issued by then, as the engine reads them (RULES.md
    11.12). `source` says whose limit it is (the pack's reference, or the permit)."""
    on = max(on, pack.effective)
    limits: dict[str, dict[str, Any]] = {}
    try:
        found = pack.parameters[DISCHARGE_LIMITS].value_on(on)
    except (KeyError, ParameterNotInForce):
        found = None
    for parameter, limit in ((found.value or {}) if found else {}).items():
        limits[parameter] = {**limit, "source": found.reference}
    permit = (
        Permit.objects.filter(establishment=establishment, issued_on__lte=on)
        .only("number", "discharge_limits")
        .order_by("-issued_on", "-pk")
        .first()
    )
    title = pack.titles.get("permit", "permit")
    for parameter, limit in ((permit.discharge_limits or {}) if permit else {}).items():
        limits[parameter] = {**limit, "source": f"{title} {permit.number}"}
    for limit in limits.values():
        limit["max"] = Decimal(str(limit["max"]))
    return limits

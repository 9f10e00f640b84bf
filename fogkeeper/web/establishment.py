"""What the establishment page shows beyond selectors.establishment_page: the schedule in the
pack's words, each device's accumulation against the pack's limit, the inspections with
their photos, and the samples of the discharge against their limits."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.inspections.models import Inspection, InspectionPhoto, Sample
from fogkeeper.inspections.selectors import discharge_limits
from fogkeeper.rules.errors import ParameterNotInForce
from fogkeeper.rules.packs import Pack

from .selectors import EstablishmentPage

RULE = "gcd.accumulation_over_limit"
LIMIT = "gcd.accumulation_limit"
LIMIT_KINDS = "gcd.accumulation_device_kinds"


def obligation_title(pack: Pack, obligation: str) -> str:
    """The pack's title of an obligation of the schedule, else the obligation in words."""
    title = pack.obligations.get(obligation)
    return title or obligation.replace("_", " ").replace(".", " ").capitalize()


def schedule(pack: Pack, compliance: ComplianceStatus | None) -> list[dict[str, Any]]:
    """The engine's schedule of the last evaluation, each obligation with its pack title."""
    items = compliance.schedule if compliance is not None else []
    return [{**item, "title": obligation_title(pack, item["obligation"])} for item in items or []]


def accumulation(pack: Pack, device, readings: list[dict[str, Any]], as_of: date) -> dict | None:
    """FOG plus solids as a percentage of the device's design depth at each reading (oldest
    first), and the pack's limit in force on `as_of` where the limit applies to this kind of
    device. None without a design depth or a reading of both layers."""
    depth = device.design_depth_inches
    points = [
        {"date": r["date"].isoformat(), "source": r["source"],
         "percent": float(round(100 * (r["fog"] + r["solids"]) / depth, 1))}
        for r in sorted(readings, key=lambda r: r["date"])
        if depth and r["fog"] is not None and r["solids"] is not None
    ]  # fmt: skip
    if not points:
        return None
    on = max(as_of, pack.effective)
    chart: dict[str, Any] = {"id": f"accumulation-{device.pk}", "device": device.code,
                             "points": points, "limit": None, "citation": ""}  # fmt: skip
    limit = accumulation_limit(pack, device.kind, on)
    if limit is not None:
        chart["limit"] = float(Decimal(str(limit.value)) * 100)
        chart["citation"] = limit.reference
    return chart


def accumulation_limit(pack: Pack, kind: str, on: date):
    """The pack's accumulation limit (a share of the design depth, with its reference) in force
    on `on` for this kind of device; None where the pack has no such rule or limit, or the
    rule does not apply to the kind."""
    if not pack.has(RULE) or LIMIT not in pack.parameters:
        return None
    try:
        kinds = pack.param(LIMIT_KINDS, on) if LIMIT_KINDS in pack.parameters else None
        if kinds is not None and kind not in kinds:
            return None
        return pack.parameters[LIMIT].value_on(on)
    except ParameterNotInForce:
        return None


def inspections_with_photos(establishment) -> list[Inspection]:
    """The establishment's inspections, newest first, each with its photos (`photo_list`)."""
    inspections = list(
        Inspection.objects.filter(establishment=establishment)
        .select_related("inspector")
        .order_by("-date", "-pk")
    )
    photos: dict[int, list[InspectionPhoto]] = {i.pk: [] for i in inspections}
    for photo in InspectionPhoto.objects.filter(inspection__in=inspections).order_by("pk"):
        photos[photo.inspection_id].append(photo)
    for inspection in inspections:
        inspection.photo_list = photos[inspection.pk]
    return inspections


def samples(establishment, pack: Pack, as_of: date) -> list[dict[str, Any]]:
    """The establishment's samples, newest first, each with the limit of its parameter on
    `as_of` (None where none applies) and whether it is over it (strictly, RULES.md 11.12);
    `over` is None where the sample is in another unit than the limit (nothing to compare)."""
    limits = discharge_limits(establishment, pack, as_of)
    rows = []
    for sample in Sample.objects.filter(establishment=establishment).select_related("device"):
        limit = limits.get(sample.parameter)
        over = None
        if limit is not None and limit["unit"] == sample.unit:
            over = sample.value > limit["max"]
        rows.append({"sample": sample, "value": _plain(sample.value), "limit": limit,
                     "max": _plain(limit["max"]) if limit else "", "over": over})  # fmt: skip
    return rows


def _plain(number: Decimal) -> str:
    """100.000 -> "100", 150.500 -> "150.5"."""
    return f"{number.normalize():f}"


def money_standing(establishment, as_of: date) -> dict[str, Any]:
    """The delinquent invoices and the Town's business license block (10.02.360(B)), shown
    near the permit (web/billing/_licence_block.html)."""
    from fogkeeper.billing.selectors import money_standing as standing

    late, block = standing(establishment, as_of)
    return {"delinquent": late, "licence_block": block}


def page_extras(*, page: EstablishmentPage, pack: Pack, as_of: date) -> dict[str, Any]:
    devices = [
        {**row, "chart": accumulation(pack, row["device"], row["readings"], as_of)}
        for row in page.devices
    ]
    return {
        "schedule": schedule(pack, page.compliance),
        "devices": devices,
        "charts": [row["chart"] for row in devices if row["chart"]],
        "inspections": inspections_with_photos(page.establishment),
        "samples": samples(page.establishment, pack, as_of),
        **money_standing(page.establishment, as_of),
    }

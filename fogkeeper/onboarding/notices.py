"""What a dry run tells of a file that it does not refuse: a real city's data is imported as
it comes, and what the register will make of it is said before it is confirmed.

- coordinates given with more decimals than the register keeps (a GIS export writes 14)
  are rounded to six (about 11 cm);
- a point outside the agency's area: the box the agency set on the onboarding page, or,
  without one, far from the middle of its establishments (those stored and those of the
  file), where a typo or a geocoder's guess in another state lands;
- devices with no pump-out on record, whom the first sweep would find overdue, and the
  "history starts" day that tells the sweep their record is not yet kept.
"""

from __future__ import annotations

import math
from datetime import date, timedelta
from statistics import median

from fogkeeper.formats import counted
from fogkeeper.rules.errors import ParameterNotInForce

from .rows import Checked

ROUNDED = "rounded"  # the note of a coordinate rounded
PLACES = 6  # the decimals a latitude or longitude is kept with (about 11 cm)
FEWEST_FOR_SPREAD = 5  # below this many points, no middle is judged
FAR_KM = 25.0  # a point nearer than this to the middle is never told
SPREAD_TIMES = 4  # ...nor one within this many times the distance nine in ten lie within
SHOWN = 5  # the rows named as examples
EARTH_KM = 6371.0


def establishments(checked: Checked) -> list[str]:
    out = []
    count = checked.notes.rows.get(ROUNDED, 0)
    if count:
        row, example = checked.notes.first[ROUNDED]
        out.append(
            f"{counted(count, 'coordinate')} had more than {PLACES} decimals and "
            f"{'were' if count > 1 else 'was'} rounded to {PLACES} (about 11 cm), as the "
            f"register keeps them; for example row {row}: {example}."
        )
    return out + _outside(checked)


def _points(checked: Checked) -> list[tuple[int, str, float, float]]:
    return [
        (number, values["code"], float(record["latitude"]), float(record["longitude"]))
        for number, values, record in checked.rows
        if record.get("latitude") is not None and record.get("longitude") is not None
    ]


def _outside(checked: Checked) -> list[str]:
    agency, points = checked.context.agency, _points(checked)
    if not points:
        return []
    if agency.area is not None:
        south, west, north, east = (float(v) for v in agency.area)
        far = [p for p in points if not (south <= p[2] <= north and west <= p[3] <= east)]
        where = (
            f"outside the agency's area (latitude {south:g} to {north:g}, longitude {west:g} "
            f"to {east:g}, set on the onboarding page)"
        )
        return [_far_words(far, where, None)] if far else []
    everyone = [(p[2], p[3]) for p in points] + _stored(checked, {p[1] for p in points})
    if len(everyone) < FEWEST_FOR_SPREAD:
        return []
    middle = (median(p[0] for p in everyone), median(p[1] for p in everyone))
    distances = sorted(_km(middle, p) for p in everyone)
    most = distances[int(0.9 * (len(distances) - 1))]
    limit = max(FAR_KM, SPREAD_TIMES * most)
    far = [p for p in points if _km(middle, (p[2], p[3])) > limit]
    where = (
        f"more than {limit:,.0f} km from the middle of the agency's establishments "
        f"({middle[0]:.4f}, {middle[1]:.4f}), where nine in ten lie within {most:,.0f} km"
    )
    return [_far_words(far, where, middle)] if far else []


def _far_words(far: list, where: str, middle) -> str:
    shown = []
    for number, code, lat, lon in far[:SHOWN]:
        away = f", {_km(middle, (lat, lon)):,.0f} km away" if middle is not None else ""
        shown.append(f"row {number} ({code}) at {lat:g}, {lon:g}{away}")
    more = f" and {len(far) - SHOWN:,} more" if len(far) > SHOWN else ""
    return (
        f"{counted(len(far), 'establishment')} of this file lie{'' if len(far) > 1 else 's'} "
        f"{where}: {'; '.join(shown)}{more}. Check the coordinates (a dropped minus sign, "
        "latitude and longitude swapped); they are imported as they are."
    )


def _stored(checked: Checked, codes: set[str]) -> list[tuple[float, float]]:
    """The points of the agency's establishments already stored, but those of the file."""
    from fogkeeper.registry.models import FoodServiceEstablishment

    rows = (
        FoodServiceEstablishment.objects.filter(
            agency=checked.context.agency, latitude__isnull=False, longitude__isnull=False
        )
        .exclude(code__in=codes)
        .values_list("latitude", "longitude")
    )
    return [(float(lat), float(lon)) for lat, lon in rows.iterator(5000)]  # type: ignore[arg-type]  # not null (filtered)


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The great-circle distance between two points, in kilometres."""
    lat1, lon1, lat2, lon2 = (math.radians(v) for v in (*a, *b))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * EARTH_KM * math.asin(min(1.0, math.sqrt(h)))


def devices(checked: Checked) -> list[str]:
    """Devices in service with no pump-out on record: without a history start, the first
    sweep finds each overdue once its frequency has passed since it was installed."""
    from fogkeeper.maintenance.models import Service

    context = checked.context
    agency, today = context.agency, context.today
    live = [
        (values["establishment_code"], values["code"], record)
        for _, values, record in checked.rows
        if record.get("removed_on") is None
    ]
    if not live:
        return []
    stored = {(fse, code): d.pk for (fse, code), d in checked.lookups.devices.items()}
    known = {stored[(f, c)] for f, c, _ in live if (f, c) in stored}
    served = set(
        Service.objects.filter(device_id__in=known).values_list("device_id", flat=True).distinct()
    )
    bare = [r for f, c, r in live if stored.get((f, c)) not in served]
    if not bare:
        return []
    starts = agency.history_starts
    if starts is not None:
        waiting = [r for r in bare if r["installed_on"] < starts]
        if not waiting:
            return []
        return [
            f"{counted(len(waiting), 'device')} {_have(waiting)} no pump-out on record. "
            f"Pump-out history starts {starts} for this agency: "
            f'{"they are" if len(waiting) > 1 else "it is"} "no record yet", not overdue, '
            f"until {agency.history_grace_ends} (a grace of {agency.history_grace_days} "
            "days); import their pump-outs, or they are counted overdue from then."
        ]
    overdue = sum(1 for r in bare if _due(context, r) < today)
    suggested = today + timedelta(days=1)
    return [
        f"{counted(len(bare), 'device')} {_have(bare)} no pump-out on record: the first "
        f"sweep would find {_all(overdue, len(bare))} overdue, each due within its frequency "
        "of its installation. Import their pump-out history (the pump-outs file) first, or "
        f"set the day the agency's pump-out history starts (for example {suggested}) on the "
        'onboarding page: a device with no record before it is then "no record yet", not '
        "overdue, for the grace period the agency sets."
    ]


def _due(context, record) -> date:
    """When a device without pump-outs is first due: its frequency after its installation
    (the pack's default for its kind; a year when the pack sets none)."""
    days = record.get("service_frequency_days")
    if days is None:
        days = 365
        try:
            defaults = context.pack.params_on(context.today).get("gcd.default_service_frequency")
        except ParameterNotInForce:  # the pack not yet in force on the day
            defaults = None
        default = (defaults or {}).get(record["kind"])
        if default is not None:
            key = f"gcd.default_service_frequency.{record['kind']}"
            days = context.pack.duration(key, default).days_equivalent()
    return record["installed_on"] + timedelta(days=days)


def _all(some: int, every: int) -> str:
    if some == every:
        return "them all" if every > 1 else "it"
    return f"{some:,} of them"


def _have(items: list) -> str:
    return "have" if len(items) > 1 else "has"

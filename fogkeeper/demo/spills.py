"""The demo's public sewer spills with their State reporting, from fogkeeper/demo/spills.yaml;
each spill's category derived from its own data as staff entry derives it."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from decimal import Decimal
from functools import cache
from pathlib import Path

from fogkeeper.safeload import load_yaml

DATA = Path(__file__).resolve().parent / "spills.yaml"


@cache
def _spills() -> dict:
    return load_yaml(DATA.read_text(encoding="utf-8")) or {}


def load_spills(agency, *, as_of: date) -> int:
    """Write the spills the data file gives the agency's pack; how many."""
    from fogkeeper.incidents.models import Incident
    from fogkeeper.registry.models import SewerSegment

    entries = _spills().get(agency.pack, [])
    segments = {s.code: s for s in SewerSegment.objects.filter(agency=agency)}
    tz = agency.get_pack().calendar.tz
    rows = [_spill(Incident, agency, s, segments, as_of, tz) for s in entries]
    Incident.objects.bulk_create(rows)
    return len(rows)


def _spill(model, agency, s: dict, segments: dict, as_of: date, tz):
    from fogkeeper.incidents.spills import derive_category
    from fogkeeper.registry.models import normalise_address

    day = as_of - timedelta(days=s["days_ago"])
    started = datetime.combine(day, time.fromisoformat(s["start"]), tzinfo=tz)
    ended = started + timedelta(hours=s["hours"])
    segment = segments.get(s.get("segment"))
    reports = s.get("reports", {})
    incident = model(
        agency=agency,
        segment=segment,
        code=s["code"],
        date=day,
        kind="spill",
        fog_caused=s.get("fog_caused", False),
        gallons=_dec(s.get("gallons")),
        gallons_recovered=_dec(s.get("recovered")),
        gallons_to_surface_water=_dec(s.get("surface_water")),
        reached_surface_water=s.get("reached_surface_water"),
        reached_storm_drain=s.get("reached_storm_drain"),
        storm_drain_fully_captured=s.get("storm_drain_fully_captured"),
        started_at=started,
        ended_at=ended,
        known_at=started + timedelta(minutes=s.get("known_after_minutes", 0)),
        address=s["address"],
        normalised_address=normalise_address(s["address"]),
        cause=s.get("cause", ""),
        oes_control_number=s.get("oes_control_number", ""),
    )
    if "oes_notified_minutes" in reports:
        incident.oes_notified_at = incident.known_at + timedelta(
            minutes=reports["oes_notified_minutes"]
        )
    for name in ("draft_report", "certified_report"):
        if f"{name}_days" in reports:
            setattr(incident, f"{name}_on", ended.date() + timedelta(days=reports[f"{name}_days"]))
    incident.category, _ = derive_category(incident)
    incident.category_source = "derived" if incident.category else ""
    if segment is not None and segment.path:
        (lat, lon), *_ = segment.path
        incident.latitude, incident.longitude = Decimal(str(lat)), Decimal(str(lon))
    return incident


def _dec(value) -> Decimal | None:
    return None if value is None else Decimal(str(value))

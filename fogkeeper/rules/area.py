"""Where a jurisdiction is, from its pack.yaml `area`: a centre, a radius and a few street
names. The demo and the generator put their made-up establishments there, so a new agency's
demo shows points on its own map and addresses on its own streets; the engine never reads it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

import yaml

from ..safeload import Refused, load_yaml

if TYPE_CHECKING:
    from .packmodel import Pack

MAX_RADIUS_KM = 100
MAX_LATITUDE, MAX_LONGITUDE = 90.0, 180.0  # degrees


@dataclass(frozen=True, slots=True)
class Area:
    centre: tuple[float, float]  # latitude, longitude, in decimal degrees
    radius_km: float
    streets: tuple[str, ...]


def area_problems(data: Any) -> list[tuple[str, str]]:
    """What is wrong with an `area` value, as (key under area, message); empty when right."""
    if not isinstance(data, dict):
        return [("", "expected {centre: [latitude, longitude], radius_km, streets}")]
    problems = [
        (k, "unknown key (expected centre, radius_km, streets)")
        for k in data
        if k not in ("centre", "radius_km", "streets")
    ]
    centre = data.get("centre")
    if not (
        isinstance(centre, list)
        and len(centre) == 2
        and all(_number(v) for v in centre)
        and abs(centre[0]) <= MAX_LATITUDE
        and abs(centre[1]) <= MAX_LONGITUDE
    ):
        problems.append(
            (
                "centre",
                f"{centre!r} is not [latitude, longitude] in decimal degrees "
                "(south and west negative, as [41.5868, -93.6250])",
            )
        )
    radius = data.get("radius_km")
    if not (_number(radius) and 0 < radius <= MAX_RADIUS_KM):
        problems.append(
            ("radius_km", f"{radius!r} is not a distance in km (over 0, at most {MAX_RADIUS_KM})")
        )
    streets = data.get("streets")
    if not (
        isinstance(streets, list)
        and streets
        and all(isinstance(s, str) and s.strip() and "\n" not in s for s in streets)
    ):
        problems.append(("streets", "expected a list of street names, as [Main St, Grand Ave]"))
    return problems


def area_of(pack: Pack) -> Area | None:
    """The pack's area, or None when its pack.yaml has none (or one `packs check` refuses)."""
    try:
        meta = load_yaml((pack.source / "pack.yaml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, Refused, yaml.YAMLError):
        return None
    data = meta.get("area") if isinstance(meta, dict) else None
    if data is None or area_problems(data):
        return None
    lat, lon = data["centre"]
    streets = tuple(s.strip() for s in data["streets"])
    return Area((float(lat), float(lon)), float(data["radius_km"]), streets)


def _number(v: Any) -> TypeGuard[int | float]:
    return isinstance(v, int | float) and not isinstance(v, bool)

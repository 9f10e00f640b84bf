"""Where a generated program's made-up establishments and sewer segments are: on the streets
the pack names and at points inside its `area` (pack.yaml), so a new agency's demo shows its
own streets and points on its own map. A pack without an area keeps the generator's street
names and no coordinates, as before. Points come from a generator of their own, so a pack with
an area gets the same establishments as one without."""

from __future__ import annotations

import math
import random
from decimal import Decimal

from fogkeeper.rules.area import area_of

from .names import STREETS

KM_PER_DEGREE = 111.32  # of latitude, and of longitude at the equator
SEGMENT_KM = 0.15  # the length of a made-up sewer reach


class Places:
    def __init__(self, pack, seed):
        self.area = area_of(pack)
        self.streets = self.area.streets if self.area else STREETS
        self.rng = random.Random(f"{seed}:places")

    def point(self) -> tuple[Decimal, Decimal] | tuple[None, None]:
        """A point drawn evenly inside the area, to the model's six decimals (None, None
        without an area)."""
        if self.area is None:
            return None, None
        lat, lon = self.area.centre
        r = self.area.radius_km * math.sqrt(self.rng.random())
        theta = self.rng.uniform(0, 2 * math.pi)
        dlat = r * math.cos(theta) / KM_PER_DEGREE
        dlon = r * math.sin(theta) / (KM_PER_DEGREE * max(math.cos(math.radians(lat)), 0.01))
        return _degrees(lat + dlat), _degrees(lon + dlon)

    def reach(self) -> list[list[float]] | None:
        """A short east-west reach of sewer inside the area, as SewerSegment.path holds it."""
        lat, lon = self.point()
        if lat is None or lon is None:
            return None
        half = SEGMENT_KM / 2 / (KM_PER_DEGREE * max(math.cos(math.radians(lat)), 0.01))
        return [[float(lat), float(lon) - half], [float(lat), float(lon) + half]]


def _degrees(v: float) -> Decimal:
    return Decimal(f"{v:.6f}")

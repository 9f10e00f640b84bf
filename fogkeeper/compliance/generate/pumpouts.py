"""The devices' pump-outs, at frequencies around the pack's defaults (every 30 to 180 days
where it sets none), some late, partial or over the limits, a few by unlicensed haulers; and
the waste cooking oil picked up at some establishments."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from .tables import Table

if TYPE_CHECKING:
    from .program import _Generator


class Pumpouts:
    def __init__(self, g: _Generator):
        from fogkeeper.maintenance.models import Service, YellowGreasePickup

        self.g = g
        self.t_service = Table(
            Service,
            [
                "device_id",
                "hauler_id",
                "manifest_number",
                "date",
                "full_pump_out",
                "gallons_removed",
                "fog_inches",
                "solids_inches",
                "final_chamber_floating_oil",
                "sludge_to_outlet_inches",
            ],
        )
        self.t_pickup = Table(
            YellowGreasePickup, ["establishment_id", "hauler_id", "date", "gallons"]
        )
        self.manifest = 0

    def services(self, devices, end, sloppy, bad) -> None:
        g = self.g
        rng = g.rng
        rnd, uniform, choice = rng.random, rng.uniform, rng.choice
        d = date.fromordinal
        rows = self.t_service.rows
        pumper = choice(g.pumpers)
        law = g.ordinance
        for dev_id, kind, installed, freq, depth, capacity in devices:
            large = kind in law.large
            when = max(installed, g.S) + int(freq * uniform(0.3, 1.0))
            keep_up = uniform(0.72, 0.95)
            while when <= end:
                self.manifest += 1
                hauler = choice(g.unlicensed) if bad(0.03) else pumper
                full = not (kind in law.fully_pumped and bad(0.04))
                if rnd() < 0.85:
                    share = uniform(0.10, 0.22)
                    if bad(0.08):
                        share = uniform(0.26, 0.45)
                    total = depth * share
                    fog = total * uniform(0.3, 0.6)
                    fog_in, solids_in = round(fog, 2), round(total - fog, 2)
                    oil = bad(0.03) if large else None
                    depth_in = round(uniform(0.5, 2) if bad(0.03) else uniform(3, 20), 1)
                    sludge = depth_in if large else None
                else:
                    fog_in = solids_in = oil = sludge = None
                rows.append(
                    (
                        dev_id,
                        hauler,
                        f"M{self.manifest:09d}",
                        d(when),
                        full,
                        round(capacity * uniform(0.8, 1.0), 0),
                        fog_in,
                        solids_in,
                        oil,
                        sludge,
                    )
                )
                late = bad(0.12)
                step = freq * (uniform(1.1, 1.8) if late else keep_up * uniform(0.95, 1.0))
                when += max(1, int(step))

    def pickups(self, fid, opened, end, yellow, bad) -> None:
        """Waste cooking oil picked up at the frequency the permit sets (`yellow`), else at
        one establishment in twenty every 60 days or so."""
        g = self.g
        rng = g.rng
        if yellow or rng.random() < 0.05:
            every = yellow or 60
            when = max(g.S, opened) + rng.randint(0, every)
            hauler = rng.choice(g.oil_haulers)
            while when <= end:
                self.t_pickup.rows.append(
                    (fid, hauler, date.fromordinal(when), float(rng.choice((35, 55, 110))))
                )
                when += int(every * (rng.uniform(0.7, 1.6) if bad(0.2) else rng.uniform(0.7, 1.0)))

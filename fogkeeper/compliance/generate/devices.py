"""An establishment's grease control devices, 1.4 on average: mostly of the pack's large kinds
(those with design limits), some of an older design; where the pack allows approved
exceptions to its design limits, half the devices outside them have theirs."""

from __future__ import annotations

import random
from datetime import date
from typing import TYPE_CHECKING, Any

from .ordinance import pack_value
from .tables import Table

if TYPE_CHECKING:
    from .program import _Generator

DEVICES_PER_FSE = ((0, 0.02), (1, 0.64), (2, 0.28), (3, 0.06))  # 1.38 on average


def weighted(rng: random.Random, pairs) -> Any:
    x = rng.random()
    for value, p in pairs:
        x -= p
        if x < 0:
            return value
    return pairs[-1][0]


class Devices:
    def __init__(self, g: _Generator):
        from fogkeeper.registry.models import ApprovedException, GreaseControlDevice

        self.g = g
        self.t_device = Table(
            GreaseControlDevice,
            [
                "id",
                "establishment_id",
                "code",
                "kind",
                "installed_on",
                "capacity_gallons",
                "design_depth_inches",
                "compartments",
                "manhole_diameter_inches",
                "service_frequency_days",
            ],
        )
        self.t_exception = Table(
            ApprovedException, ["device_id", "field", "approved_on", "approved_by", "reference"]
        )
        self.approver = g.ordinance.pack.titles.get("manager", "")

    def add(self, fid: int, category: str, opened: int, end: int, bad) -> list[tuple]:
        """The establishment's grease control devices (and their approved exceptions):
        (id, kind, installed, frequency, depth, capacity) of each."""
        g = self.g
        rng, law, d = g.rng, g.ordinance, date.fromordinal
        rnd, ri, choice = rng.random, rng.randint, rng.choice
        devices = []
        count = weighted(rng, DEVICES_PER_FSE)
        if not law.needs_device(category):
            count = int(rnd() < 0.2)
        for k in range(1, count + 1):
            kind = law.kind(rnd())
            large = kind in law.large
            freq = weighted(rng, law.frequencies[kind])
            if large:
                depth = float(choice((42, 48, 48, 54, 60, 72)))
                capacity = float(choice((750, 1000, 1000, 1500, 2000)))
                compartments = choice((2, 2, 3))
                manhole = 24.0
                if bad(0.1):  # an older design
                    capacity, compartments, manhole = 500.0, 1, 18.0
            else:
                depth, capacity, compartments, manhole = float(choice((10, 12, 14))), 40.0, 1, None
            installed = opened - ri(0, 30) if k == 1 or rnd() < 0.6 else ri(opened, end)
            dev_id = g.new_id(self.t_device.model)
            devices.append((dev_id, kind, installed, freq, depth, capacity))
            self.t_device.rows.append(
                (
                    dev_id,
                    fid,
                    f"{law.prefix[kind]}-{k}",
                    kind,
                    d(installed),
                    capacity,
                    depth,
                    compartments,
                    manhole,
                    freq if k > 1 or not large else None,
                )
            )
            if law.approves:
                design = {
                    "capacity_gallons": capacity,
                    "design_depth_inches": depth,
                    "compartments": compartments,
                    "manhole_diameter_inches": manhole,
                }
                self._exceptions(dev_id, kind, design, installed, end)
        return devices

    def _exceptions(self, dev_id, kind, design, installed, end) -> None:
        """Half the devices outside the design limits have the agency's approval of the
        fields that fail, some weeks after they were installed (or the pack took effect)."""
        rng = self.g.extra_rng
        law = self.g.ordinance
        failed = law.failing(kind, design)
        if not failed or rng.random() >= 0.5:
            return
        approved = max(installed, law.pack.effective.toordinal()) + rng.randint(10, 120)
        if approved > end:
            return
        if not pack_value(law.pack, "gcd.exceptions_allowed", date.fromordinal(approved)):
            return
        for name in failed:
            self.t_exception.rows.append(
                (
                    dev_id,
                    name,
                    date.fromordinal(approved),
                    self.approver,
                    f"EX-{date.fromordinal(approved).year}-{dev_id}",
                )
            )

"""An establishment's inspections, about four, each answering part of the pack's checklist and
measuring the devices; and, where the pack sets discharge limits, the samples of some
interceptors' outlets (a few above a limit, most of those re-sampled within it)."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from .ordinance import YEAR
from .tables import Table

if TYPE_CHECKING:
    from .program import _Generator

ACCESS_ITEM = "inspection.access_refused"


class Inspections:
    def __init__(self, g: _Generator):
        from fogkeeper.inspections.models import ChecklistAnswer, Inspection, Measurement, Sample

        self.g = g
        self.t_inspection = Table(Inspection, ["id", "establishment_id", "code", "date"])
        self.t_measurement = Table(
            Measurement,
            [
                "inspection_id",
                "device_id",
                "fog_inches",
                "solids_inches",
                "final_chamber_floating_oil",
                "sludge_to_outlet_inches",
            ],
        )
        self.t_answer = Table(ChecklistAnswer, ["inspection_id", "item", "device_id", "compliant"])
        self.t_sample = Table(
            Sample,
            [
                "establishment_id",
                "device_id",
                "code",
                "date",
                "parameter",
                "value",
                "unit",
                "method",
            ],
        )
        checklist = g.ordinance.pack.checklist
        items = sorted(checklist)
        self.gcd_items = [i for i in items if i.startswith("gcd.")]
        self.access_item = ACCESS_ITEM if ACCESS_ITEM in checklist else None
        self.other_items = [i for i in items if not i.startswith("gcd.") and i != ACCESS_ITEM]

    def add(self, fid, devices, opened, end, sloppy, bad) -> None:
        g = self.g
        rng = g.rng
        ri = rng.randint
        d = date.fromordinal
        first = max(opened + 30, g.S)
        if first >= end:
            return
        n = ri(2, 6)
        span = min(end - first, 5 * YEAR)
        step = max(30, span // n)
        when = end - ri(10, min(step, 400))
        dates: list[int] = []
        while when >= first and len(dates) < n:
            dates.append(when)
            when -= int(step * rng.uniform(0.8, 1.2))
        for k, when in enumerate(reversed(dates), start=1):
            iid = g.new_id(self.t_inspection.model)
            self.t_inspection.rows.append((iid, fid, f"I-{k}", d(when)))
            here = [dv for dv in devices if dv[2] <= when]
            self._measure(iid, here, sloppy, bad)
            self._answer(iid, here, bad)

    def _measure(self, iid, devices, sloppy, bad) -> None:
        rng = self.g.rng
        for dev_id, kind, _, _, depth, _ in devices:
            large = kind in self.g.ordinance.large
            if rng.random() < 0.6:
                total = depth * rng.uniform(0.05, 0.32 if sloppy else 0.22)
                fog = total * rng.uniform(0.3, 0.6)
                self.t_measurement.rows.append(
                    (
                        iid,
                        dev_id,
                        round(fog, 2),
                        round(total - fog, 2),
                        bad(0.03) if large else None,
                        round(rng.uniform(3, 20), 1) if large else None,
                    )
                )

    def _answer(self, iid, devices, bad) -> None:
        rng = self.g.rng
        items, gcd_items = self.other_items, self.gcd_items
        for item in rng.sample(items, min(len(items), rng.randint(4, 8))):
            self.t_answer.rows.append((iid, item, None, not bad(0.12)))
        if devices:
            dev_id = devices[0][0]
            for item in rng.sample(gcd_items, min(len(gcd_items), rng.randint(1, 2))):
                self.t_answer.rows.append((iid, item, dev_id, not bad(0.12)))
        if self.access_item and (rng.random() < 0.3 or bad(0.03)):
            self.t_answer.rows.append((iid, self.access_item, None, not bad(0.1)))

    def samples(self, fid, devices, opened, end, sloppy) -> None:
        """A third of the establishments with a large device have its outlet sampled for each
        parameter the pack limits, once or twice; now and then a sample is over the limit,
        and then, mostly, a re-sample some weeks later is within it."""
        g = self.g
        rng = g.extra_rng
        law = g.ordinance
        large = [dv for dv in devices if dv[1] in law.large]
        first = max(opened + 30, g.S)
        if not large or first >= end or rng.random() >= 0.3:
            return
        dev_id = large[0][0]
        k = 0
        for parameter, limit in sorted(law.discharge_limits.items()):
            top, unit = float(limit["max"]), limit["unit"]
            method = "EPA 1664" if parameter == "oil_and_grease" else ""
            for _ in range(rng.randint(1, 2)):
                when = rng.randint(first, end)
                over = rng.random() < (0.35 if sloppy else 0.05)
                value = top * (rng.uniform(1.2, 3.5) if over else rng.uniform(0.1, 0.8))
                k += 1
                rows = [(when, value)]
                if over and rng.random() < 0.7 and when + 21 <= end:
                    again = rng.randint(when + 21, min(end, when + 60))
                    rows.append((again, top * rng.uniform(0.2, 0.7)))
                for day, v in rows:
                    self.t_sample.rows.append(
                        (
                            fid,
                            dev_id,
                            f"S-{k}" if day == when else f"S-{k}R",
                            date.fromordinal(day),
                            parameter,
                            round(v, 1),
                            unit,
                            method,
                        )
                    )

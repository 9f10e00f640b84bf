"""The demo establishments' inspections, about a year apart, each answering every item of
the pack's checklist and measuring every device; the items found not compliant; and the
samples of their discharge."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from .data import Shape


class _Inspections:
    """The inspections and samples of builder.py's `_Builder`, which this is a part of."""

    # What the builder (demo_builder._Builder) gives the parts it is made of.
    rng: random.Random
    start: date
    A: date
    shape: Shape
    ago: Callable[[int], date]
    between: Callable[[date, date], date]
    inspections_from: date
    checklist: list[str]
    inspection_no: int
    sample_no: int

    def _inspections(self, rec, opened_on, end, last_inspection) -> None:
        rng = self.rng
        if last_inspection is None:
            last_inspection = rng.randint(20, 300)
        when = (
            self.ago(last_inspection)
            if end == self.A
            else end - timedelta(days=rng.randint(10, 60))
        )
        dates = []
        while when >= max(self.inspections_from, opened_on + timedelta(days=20)):
            dates.append(when)
            when -= timedelta(days=rng.randint(330, 375))
        for when in reversed(dates):
            self.inspect(rec, when)

    def inspect(self, rec: dict, when: date, *, answers: dict[str, bool] | None = None) -> dict:
        """An inspection on `when` answering every checklist item (compliant unless `answers`
        says otherwise) and measuring every device."""
        self.inspection_no += 1
        devices = [d for d in rec["devices"] if d["installed_on"] <= when]
        items = []
        for item in self.checklist:
            a: dict[str, Any] = {"item": item, "compliant": True}
            if item.startswith("gcd."):
                if not devices:
                    continue
                a["device"] = devices[0]["id"]
            items.append(a)
        insp = {
            "id": f"I-{when.year}-{self.inspection_no:04d}",
            "date": when,
            "measurements": [self._measure(rec, d, when) for d in devices],
            "answers": items,
        }
        for item, compliant in (answers or {}).items():
            self.answer(insp, item, compliant)
        rec["inspections"].append(insp)
        rec["inspections"].sort(key=lambda i: (i["date"], i["id"]))
        return insp

    def _measure(self, rec: dict, dev: dict, when: date) -> dict:
        rng = self.rng
        served = [
            s["date"]
            for s in rec["services"]
            if s["device"] == dev["id"] and s["date"] <= when and s.get("full_pump_out", True)
        ]
        since = served[-1] if served else max(dev["installed_on"], self.start)
        total = rec["_rates"][dev["id"]] * max((when - since).days, 3) * rng.uniform(0.9, 1.0)
        total = min(total, dev["design_depth_inches"] * 0.24)
        fog = total * rng.uniform(0.3, 0.45)
        m: dict[str, Any] = {
            "device": dev["id"],
            "fog_inches": round(fog, 2),
            "solids_inches": round(total - fog, 2),
        }
        if dev["kind"] == "interceptor":
            m["final_chamber_floating_oil"] = False
            m["sludge_to_outlet_inches"] = round(
                dev["design_depth_inches"] * rng.uniform(0.3, 0.5), 1
            )
        return m

    @staticmethod
    def answer(insp: dict, item: str, compliant: bool, note: str | None = None) -> None:
        for a in insp["answers"]:
            if a["item"] == item:
                a["compliant"] = compliant
                if note:
                    a["note"] = note
                return
        raise KeyError(f"{item} is not answered in {insp['id']}")

    def fail(self, rec: dict, item: str, *, cured: bool, note: str | None = None) -> None:
        """A checklist item found not compliant: at the last inspection (open), or at the one
        before and compliant again at the last (cured)."""
        inspections = rec["inspections"]
        if not inspections:
            raise ValueError(f"{rec['establishment']['name']} has no inspection")
        if cured and len(inspections) == 1:  # a re-inspection found it corrected
            first = inspections[0]["date"]
            self.inspect(rec, self.between(first + timedelta(days=14), self.ago(1)))
        insp = inspections[-2] if cured else inspections[-1]
        self.answer(insp, item, False, note)

    def sample(
        self,
        rec: dict,
        days_ago: int,
        value: float,
        *,
        device: str | None = "GI-1",
        parameter: str = "oil_and_grease",
        unit: str = "mg/L",
        method: str | None = "EPA 1664",
    ) -> dict:
        """A sample of the discharge (of `device`, or of the establishment's lateral when
        None), analysed by the lab for one parameter."""
        self.sample_no += 1
        when = self.ago(days_ago)
        s: dict[str, Any] = {"id": f"S-{when.year}-{self.sample_no:03d}", "date": when}
        if device is not None:
            s["device"] = device
        s.update(parameter=parameter, value=float(value), unit=unit)
        if method:
            s["method"] = method
        rec.setdefault("samples", []).append(s)
        rec["samples"].sort(key=lambda x: (x["date"], x["id"]))
        return s

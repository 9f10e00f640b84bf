"""Engine benchmark: parse (validation) and evaluate throughput on generated case files.

    python -m bench.engine --count 100000 [--seed 20250630] [--chunk 1000]

Generates N varied, valid case files as Python dicts (seeded, reproducible; half per pack),
then, in this one process and thread, times `parse_case` on all of them, `evaluate` on the
parsed cases, and both together end to end; prints peak memory, average records per case,
a status histogram, and the wall time of the `fogkeeper evaluate` command on one case file.
Cases are generated and measured a chunk at a time so that memory stays bounded; generation
is not timed. Nothing is asserted: the figures are printed only.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from fogkeeper.rules import CaseFileError, evaluate, native, parse_case
from fogkeeper.rules.packs import default_registry

PACKS = ("san-clemente", "town-10-02")
TARGET_RATE = 5_000  # case files per second, parse + evaluate, one core
TARGET_CLI = 0.2  # seconds for `fogkeeper evaluate FILE`
CLI_RUNS = 10
ALLOWED_FREQUENCIES = (30, 60, 90, 120, 180)

FIRST = ("Ana", "Luis", "Mei", "Sam", "Priya", "Omar", "Jo", "Kim", "Raul", "Tess", "Ivan", "Nia")
LAST = ("Ruiz", "Chen", "Patel", "Nguyen", "Smith", "Garcia", "Okafor", "Kowalski", "Lee")
FOOD = ("Taqueria", "Noodle Bar", "Diner", "Pizzeria", "Grill", "Bistro", "Bakery", "Sushi")


# --------------------------------------------------------------------------- generation


def _iso(d: date) -> str:
    return d.isoformat()


def _days(rng: random.Random, lo: int, hi: int) -> timedelta:
    return timedelta(days=rng.randint(lo, hi))


def _between(rng: random.Random, start: date, end: date) -> date:
    if end <= start:
        return start
    return start + timedelta(days=rng.randint(0, (end - start).days))


def _name(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


class Generator:
    """Builds case-file dicts for both packs; case i depends only on (seed, i).

    About a third of the establishments are well run (every obligation met on time, nothing
    over a limit, every answer compliant); the others have defects drawn at random: late,
    partial or over-limit pump-outs, unlicensed haulers, missing or unsigned training,
    failed checklist items, overflows, missed milestones, unpaid invoices, and so on.
    """

    def __init__(self, seed: int, well_run: float = 0.35):
        self.seed = seed
        self.well_run = well_run
        registry = default_registry()
        self.packs = {pid: registry.get(pid) for pid in PACKS}
        self.checklists = {pid: sorted(p.checklist) for pid, p in self.packs.items()}
        self.classes = {pid: p.administrative_classes() for pid, p in self.packs.items()}
        self.caps = {
            pid: {
                cls: p.parameters[f"enforcement.penalty_cap.{cls}"].values[-1].value["amount"]
                for cls in self.classes[pid]
            }
            for pid, p in self.packs.items()
        }
        # per-case state, set by case()
        self.rng = random.Random()
        self.good = False
        self.town = False

    def bad(self, p: float) -> bool:
        """A defect with probability p, never at a well-run establishment."""
        return not self.good and self.rng.random() < p

    def case(self, i: int) -> dict[str, Any]:
        rng = self.rng = random.Random(self.seed * 1_000_003 + i)
        pack_id = PACKS[i % 2]
        self.town = pack_id == "town-10-02"
        self.good = rng.random() < self.well_run
        as_of = date(2025, 1, 1) + _days(rng, 0, 364)
        horizon = as_of - timedelta(days=3 * 365)  # up to 3 years of records

        est, operator_name = self._establishment(i, as_of, horizon)
        opened = date.fromisoformat(est["opened_on"])
        permit = self._permit(i, as_of, operator_name)
        haulers = [
            {"id": f"H-{h}", "name": f"{rng.choice(LAST)} Pumping", "licensed": not self.bad(0.08)}
            for h in range(1, rng.randint(1, 3) + 1)
        ]
        devices = self._devices(as_of, opened, permit)
        employees = self._employees(as_of, opened, horizon)
        case: dict[str, Any] = {
            "jurisdiction": pack_id,
            "as_of": _iso(as_of),
            "establishment": est,
            "permit": permit,
            "devices": [d for d, _ in devices],
            "haulers": haulers,
            "services": self._services(devices, haulers, horizon, as_of),
            "yellow_grease_pickups": self._pickups(permit, haulers, horizon, as_of),
            "employees": employees,
            "trainings": self._trainings(employees, horizon, as_of),
            "inspections": self._inspections(pack_id, devices, horizon, as_of),
            "incidents": self._incidents(horizon, as_of),
            "enforcement": self._enforcement(pack_id, as_of),
        }
        if rng.random() < 0.1:  # the database may leave empty lists out
            for key in ("incidents", "enforcement", "yellow_grease_pickups"):
                if not case[key]:
                    del case[key]
        return case

    # -- establishment and permit

    def _establishment(self, i, as_of, horizon):
        rng = self.rng
        if rng.random() < 0.35:
            opened = date(2000, 1, 1) + _days(rng, 0, 15 * 365)
        else:
            opened = as_of - _days(rng, 60, 8 * 365)
        operator_since = opened if rng.random() < 0.7 else _between(rng, opened, as_of)
        operator = f"{rng.choice(LAST)} Foods LLC"
        est: dict[str, Any] = {
            "id": f"FSE-{i:06d}",
            "name": f"{rng.choice(LAST)}'s {rng.choice(FOOD)}",
            "category": "limited_food_preparation" if rng.random() < 0.03 else "full_service",
            "on_public_sewer": rng.random() > 0.02,
            "opened_on": _iso(opened),
            "closed_on": None,
            "operator": {"name": operator, "since": _iso(operator_since)},
        }
        r = rng.random()
        if r < 0.02:
            est["closed_on"] = _iso(_between(rng, max(opened, as_of - timedelta(400)), as_of))
        elif r < 0.03:
            est["closed_on"] = _iso(as_of + _days(rng, 1, 90))  # closing planned
        if rng.random() < 0.15:
            est["remodeled_on"] = _iso(_between(rng, opened, as_of))
        if self.bad(0.06):
            est["food_grinder"] = True
            if rng.random() < 0.5:
                est["food_grinder_installed_on"] = _iso(_between(rng, opened, as_of))
        if rng.random() < 0.03:
            est["variance_granted"] = True
        if self.town:
            if rng.random() < 0.1:
                est["interceptor_exception"] = rng.choice(("space", "slope"))
            if rng.random() < 0.05:
                est["interceptor_plans_submitted_on"] = _iso(_between(rng, horizon, as_of))
            if rng.random() < 0.2:
                changes = []
                for _ in range(rng.randint(1, 2)):
                    when = as_of + _days(rng, -500, 200)
                    change = {"date": _iso(when), "kind": rng.choice(("remodel", "expansion"))}
                    if not self.bad(0.3):
                        lead = _days(rng, 20, 120) if self.bad(0.5) else _days(rng, 61, 120)
                        change["notified_on"] = _iso(when - lead)
                    changes.append(change)
                est["changes"] = changes
        return est, operator

    def _permit(self, i, as_of, operator):
        rng = self.rng
        if self.bad(0.12):
            return None
        if self.town:
            issued = as_of - (_days(rng, 0, 420) if self.bad(0.5) else _days(rng, 0, 360))
            expires = issued + timedelta(days=364)
        else:
            issued = as_of - (_days(rng, 0, 5 * 365 + 60) if self.bad(0.5) else _days(rng, 0, 1500))
            expires = issued + timedelta(days=5 * 365 - 1)
        permit: dict[str, Any] = {
            "number": f"{'TWN' if self.town else 'SC'}-FOG-{i:06d}",
            "holder": f"{rng.choice(LAST)} Holdings Inc" if self.bad(0.08) else operator,
            "issued_on": _iso(issued),
            "expires_on": _iso(expires),
        }
        if not self.town and (rng.random() < 0.5 or self.good):
            early = _days(rng, -30, 120) if self.bad(0.5) else _days(rng, 61, 120)
            permit["renewal_applied_on"] = _iso(expires - early)
        if self.town:
            if rng.random() < 0.35:
                permit["service_frequency_days"] = rng.choice((60, 90, 120, 45))
        elif rng.random() < 0.9:
            permit["service_frequency_days"] = rng.choice((30, 60, 90, 90, 120, 180))
        if not self.town and rng.random() < 0.4:
            permit["yellow_grease_frequency_days"] = rng.choice((30, 60, 90))
        return permit

    # -- devices and their services

    def _devices(self, as_of, opened, permit):
        """[(device dict, the frequency its services are generated at)]."""
        rng = self.rng
        out = []
        n = 0 if self.bad(0.04) else rng.randint(1, 3)
        for k in range(1, n + 1):
            if k == 1 and self.good or rng.random() < 0.7 or self.good and not self.town:
                device = {
                    "id": f"GI-{k}",
                    "kind": "interceptor",
                    "capacity_gallons": float(rng.choice((750, 1000, 1000, 1500, 2000))),
                    "design_depth_inches": float(rng.choice((36, 42, 48, 48, 54, 60, 72))),
                    "compartments": rng.choice((2, 2, 2, 3)),
                    "manhole_diameter_inches": float(rng.choice((20, 24, 24, 30))),
                }
                if self.bad(0.3):  # an older design
                    device["capacity_gallons"] = float(rng.choice((300, 500)))
                    device["compartments"] = 1
                    device["manhole_diameter_inches"] = 18.0
                default = 90
            else:
                device = {
                    "id": f"GT-{k}",
                    "kind": "trap",
                    "capacity_gallons": float(rng.choice((20, 30, 40, 50))),
                    "design_depth_inches": float(rng.choice((10, 12, 14))),
                    "compartments": 1,
                }
                default = 30
            device["installed_on"] = _iso(
                opened if rng.random() < 0.6 else _between(rng, opened, as_of)
            )
            if rng.random() < 0.12:
                device["service_frequency_days"] = rng.choice(ALLOWED_FREQUENCIES)
            freq = (
                device.get("service_frequency_days")
                or (permit or {}).get("service_frequency_days")
                or default
            )
            out.append((device, freq))
        return out

    def _services(self, devices, haulers, horizon, as_of):
        rng = self.rng
        services = []
        n = 0
        for device, freq in devices:
            depth = device["design_depth_inches"]
            interceptor = device["kind"] == "interceptor"
            sloppy = rng.random()  # how poorly this device is kept up
            when = max(date.fromisoformat(device["installed_on"]), horizon)
            when += _days(rng, 0, freq)
            while when <= as_of + timedelta(days=30):
                n += 1
                interval = int(freq * rng.uniform(0.75, 1.0))
                if self.bad(0.1 + 0.25 * sloppy):  # late
                    interval = int(freq * rng.uniform(1.1, 1.8))
                s: dict[str, Any] = {
                    "id": f"M-{n:05d}",
                    "device": device["id"],
                    "date": _iso(when),
                    "hauler": rng.choice(haulers)["id"],
                }
                if interceptor and self.bad(0.06):
                    s["full_pump_out"] = False
                if rng.random() < 0.85:
                    # fills to about 12-22% of its depth over the interval it was due
                    share = rng.uniform(0.12, 0.22) * min(interval / freq, 1.1)
                    if self.bad(0.1):
                        share = rng.uniform(0.26, 0.45)  # over the 25% limit
                    total = depth * share
                    fog = total * rng.uniform(0.3, 0.6)
                    s["fog_inches"] = round(fog, 1)
                    s["solids_inches"] = round(total - fog, 1)
                    s["gallons_removed"] = round(
                        device["capacity_gallons"] * rng.uniform(0.85, 1.0), 0
                    )
                    if interceptor:
                        s["final_chamber_floating_oil"] = self.bad(0.03)
                        clearance = rng.uniform(1.0, 20.0) if self.bad(0.5) else rng.uniform(3, 20)
                        s["sludge_to_outlet_inches"] = round(clearance, 1)
                services.append(s)
                when += timedelta(days=interval)
        rng.shuffle(services)  # manifests arrive in any order
        return services

    def _pickups(self, permit, haulers, horizon, as_of):
        rng = self.rng
        if self.bad(0.25):
            return []
        freq = (permit or {}).get("yellow_grease_frequency_days") or 60
        every = min(freq, rng.choice((21, 30, 45, 60)))
        out = []
        when = horizon + _days(rng, 0, every)
        while when <= as_of:
            out.append(
                {"date": _iso(when), "hauler": rng.choice(haulers)["id"], "gallons": 55.0}
                if rng.random() < 0.8
                else {"date": _iso(when)}
            )
            late = self.bad(0.15)
            when += _days(rng, int(every * 0.7), int(every * (1.5 if late else 1.0)))
        return out

    # -- people

    def _employees(self, as_of, opened, horizon):
        rng = self.rng
        out = []
        earliest = max(opened, horizon - timedelta(days=2 * 365))
        for k in range(1, rng.randint(5, 20) + 1):
            hired = _between(rng, earliest, as_of + timedelta(days=20))
            e: dict[str, Any] = {"id": f"E-{k}", "name": _name(rng), "hired_on": _iso(hired)}
            if rng.random() < 0.3:
                e["left_on"] = _iso(hired + _days(rng, 30, 900))
            if rng.random() < 0.15:
                e["kitchen_duties"] = False
            if rng.random() < 0.05:
                e["contractor"] = True
            out.append(e)
        return out

    def _trainings(self, employees, horizon, as_of):
        rng = self.rng
        out = []
        spans = [
            (
                e["id"],
                date.fromisoformat(e["hired_on"]),
                date.fromisoformat(e["left_on"]) if e.get("left_on") else date.max,
            )
            for e in employees
        ]

        def session(when: date, who: list[str]) -> None:
            out.append(
                {
                    "id": f"T-{len(out) + 1}",
                    "date": _iso(when),
                    "attendees": [{"employee": w, "signed": not self.bad(0.05)} for w in who],
                }
            )

        # refreshers: yearly in the Town, every six months in San Clemente (some late)
        lo, hi = (300, 360) if self.town else (140, 175)
        when = horizon + _days(rng, 0, lo)
        while when <= as_of:
            who = [eid for eid, h, left in spans if h <= when < left and not self.bad(0.12)]
            if who:
                session(when, who)
            when += _days(rng, lo, hi + 60 if self.bad(0.3) else hi)
        # new hires: the Town trains at hiring, San Clemente within a month; some late or never
        for eid, hired, _ in spans:
            if hired < horizon or self.bad(0.35):
                continue
            if self.bad(0.3):
                session(hired + _days(rng, 1, 60), [eid])
            else:
                session(hired if self.town else hired + _days(rng, 0, 25), [eid])
        return out

    # -- inspections, incidents, enforcement

    def _inspections(self, pack_id, devices, horizon, as_of):
        rng = self.rng
        items = self.checklists[pack_id]
        out = []
        when = horizon + _days(rng, 0, 300)
        while when <= as_of:
            answers = []
            for item in rng.sample(items, rng.randint(5, 15)):
                if item == "inspection.access_refused":
                    answer: dict[str, Any] = {"item": item, "compliant": not self.bad(0.03)}
                else:
                    answer = {"item": item, "compliant": not self.bad(0.12)}
                if item.startswith("gcd.") and devices:
                    answer["device"] = rng.choice(devices)[0]["id"]
                if not answer["compliant"] and rng.random() < 0.5:
                    answer["note"] = "Corrected on site." if rng.random() < 0.3 else "See photo."
                answers.append(answer)
            measurements = []
            for device, _ in devices:
                if rng.random() < 0.7:
                    depth = device["design_depth_inches"]
                    total = depth * rng.uniform(0.05, 0.32 if self.bad(1) else 0.22)
                    fog = total * rng.uniform(0.3, 0.6)
                    m: dict[str, Any] = {
                        "device": device["id"],
                        "fog_inches": round(fog, 1),
                        "solids_inches": round(total - fog, 1),
                    }
                    if device["kind"] == "interceptor":
                        m["final_chamber_floating_oil"] = self.bad(0.03)
                        m["sludge_to_outlet_inches"] = round(rng.uniform(3.0, 20.0), 1)
                    measurements.append(m)
            out.append(
                {
                    "id": f"I-{len(out) + 1}",
                    "date": _iso(when),
                    "measurements": measurements,
                    "answers": answers,
                }
            )
            when += _days(rng, 200, 500 if self.bad(0.5) else 360)
        return out

    def _incidents(self, horizon, as_of):
        rng = self.rng
        out = []
        for k in range(1, rng.choice((0, 0, 0, 1, 1, 2, 3)) + 1):
            when = _between(rng, horizon, as_of)
            inc: dict[str, Any] = {
                "id": f"SSO-{k}",
                "date": _iso(when),
                "kind": rng.choice(("overflow", "spill", "blockage")),
                "attributed": self.bad(0.5),
                "gallons": float(rng.randint(5, 500)),
            }
            if rng.random() < 0.7:
                inc["written_report_on"] = _iso(when + _days(rng, 1, 12))
            if rng.random() < 0.6:
                inc["clearance_inspection_on"] = _iso(when + _days(rng, 1, 40))
            out.append(inc)
        return out

    def _enforcement(self, pack_id, as_of):
        rng = self.rng
        # Only the types it has a generator for: a pack's new action type leaves the files
        # (and the reports the golden digests hold) as they were.
        types = sorted(t for t in self.packs[pack_id].actions if t in GENERATED_TYPES)
        out = []
        for k in range(1, rng.choice((0, 0, 1, 1, 2, 3, 4)) + 1):
            kind = rng.choice(types)
            start = as_of - _days(rng, 0, 700)
            out.append({"id": f"A-{k}", "type": kind, **self._action_fields(pack_id, kind, start)})
        return out

    def _action_fields(self, pack_id, kind, start):
        rng = self.rng

        def maybe(after: date, lo: int, hi: int, p: float = 0.6) -> str | None:
            return _iso(after + _days(rng, lo, hi)) if rng.random() < p else None

        if kind == "notice_of_noncompliance":
            correct_by = start + _days(rng, 14, 45)
            return {
                "delivered_on": _iso(start),
                "correct_by": _iso(correct_by),
                "corrected_on": maybe(correct_by, -10, 40),
            }
        if kind in ("manager_decision", "emergency_decision"):
            return {"delivered_on": _iso(start)}
        if kind == "hearing_decision":
            return {"noticed_on": _iso(start)}
        if kind == "council_decision":
            return {"decided_on": _iso(start)}
        if kind in ("suspension_notice", "revocation_notice"):
            hearing = start + _days(rng, 8, 50)
            return {
                "mailed_on": _iso(start),
                "hearing_on": _iso(hearing),
                "hearing_concluded_on": maybe(hearing, 0, 3),
            }
        if kind == "emergency_suspension":
            ordered = datetime(start.year, start.month, start.day, rng.randint(7, 18))
            concluded = ordered + timedelta(hours=rng.randint(20, 100))
            return {
                "ordered_at": ordered.isoformat(),
                "hearing_concluded_at": concluded.isoformat() if rng.random() < 0.6 else None,
            }
        if kind == "administrative_complaint":
            return {"served_on": _iso(start)}
        if kind == "penalty_order":
            classes = self.classes[pack_id]
            cls = rng.choice(sorted(classes))
            unit = classes[cls]
            quantity = rng.randint(1, 30) if unit != "gallons" else rng.randint(50, 2000)
            amount = self.caps[pack_id][cls] * quantity * rng.choice((0.25, 0.5, 1.0, 1.0, 1.2))
            issuers = self.packs[pack_id].actions[kind].fields["issued_by"].choices
            return {
                "issued_by": rng.choice(issuers),
                "issued_on": _iso(start),
                "served_on": _iso(start + _days(rng, 0, 5)),
                "amount": round(amount, 2),
                "class": cls,
                unit: quantity,
                "paid_on": maybe(start, 10, 120, 0.5),
            }
        if kind == "compliance_schedule":
            milestones = []
            due = start
            for m in range(1, rng.randint(1, 4) + 1):
                due += _days(rng, 20, 90)
                milestone = {"id": f"MS-{m}", "due": _iso(due)}
                if not self.bad(0.3):
                    met = due + (_days(rng, 1, 20) if self.bad(0.3) else _days(rng, -15, 0))
                    milestone["met_on"] = _iso(met)
                milestones.append(milestone)
            owed = rng.random() < 0.3
            return {
                "entered_on": _iso(start),
                "balance_due": round(rng.uniform(100, 5000), 2) if owed else 0,
                "payment_arrangement": owed and rng.random() < 0.5,
                "milestones": milestones,
            }
        if kind == "final_decision":
            requested = start + _days(rng, 1, 15) if rng.random() < 0.4 else None
            return {
                "final_on": _iso(start),
                "record_requested_on": _iso(requested) if requested else None,
                "record_delivered_on": maybe(requested, 5, 60) if requested else None,
            }
        if kind == "invoice":
            paid = None if self.bad(0.3) else _days(rng, 5, 70 if self.bad(0.3) else 40)
            return {
                "noticed_on": _iso(start),
                "amount": round(rng.uniform(150, 2500), 2),
                "paid_on": _iso(start + paid) if paid is not None else None,
                "description": "Annual FOG permit and inspection fee",
            }
        raise ValueError(f"no generator for action type {kind!r} ({pack_id})")


GENERATED_TYPES = frozenset(
    {
        "notice_of_noncompliance",
        "manager_decision",
        "emergency_decision",
        "hearing_decision",
        "council_decision",
        "suspension_notice",
        "revocation_notice",
        "emergency_suspension",
        "administrative_complaint",
        "penalty_order",
        "compliance_schedule",
        "final_decision",
        "invoice",
    }
)


def records_in(case: dict[str, Any]) -> int:
    """Every record of the file: each list entry, nested ones included, plus the singletons."""
    n = 1 + (case.get("permit") is not None)  # the establishment, the permit
    n += len(case["establishment"].get("changes") or ())
    for key in ("devices", "haulers", "services", "yellow_grease_pickups", "employees"):
        n += len(case.get(key) or ())
    for t in case.get("trainings") or ():
        n += 1 + len(t["attendees"])
    for insp in case.get("inspections") or ():
        n += 1 + len(insp["measurements"]) + len(insp["answers"])
    n += len(case.get("incidents") or ())
    for a in case.get("enforcement") or ():
        n += 1 + len(a.get("milestones") or ())
    return n


# --------------------------------------------------------------------------- measurement


def _mib(kib: int) -> float:
    return kib / 1024  # ru_maxrss is in KiB on Linux


def _peak_mib() -> float:
    return _mib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


class Clock:
    """Wall time and this process's CPU time over the spans it was running."""

    def __init__(self) -> None:
        self.wall = self.cpu = 0.0
        self._start = (0.0, 0.0)

    def start(self) -> None:
        self._start = (time.perf_counter(), time.process_time())

    def stop(self) -> None:
        self.wall += time.perf_counter() - self._start[0]
        self.cpu += time.process_time() - self._start[1]

    def rate(self, n: int) -> float:
        return n / self.wall if self.wall else 0.0

    def line(self, n: int) -> str:
        per_case = self.wall / n * 1e6 if n else 0.0
        cpu_rate = n / self.cpu if self.cpu else 0.0
        return (
            f"{self.rate(n):>7,.0f} case files/s ({per_case:,.0f} µs each, {self.wall:,.2f} s;"
            f" by CPU time {cpu_rate:,.0f}/s)"
        )


def _cli_times(case: dict[str, Any]) -> list[float]:
    exe = Path(sys.executable).parent / "fogkeeper"
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{case['establishment']['id']}.json"
        path.write_text(json.dumps(case), encoding="utf-8")
        for _ in range(CLI_RUNS):
            t0 = time.perf_counter()
            proc = subprocess.run([str(exe), "evaluate", str(path)], capture_output=True)
            times.append(time.perf_counter() - t0)
            if proc.returncode != 0:
                print(f"  fogkeeper evaluate exited {proc.returncode}: {proc.stderr[:500]!r}")
                break
    return times


@dataclass
class Tally:
    """What the run has counted and timed so far, chunk after chunk."""

    per_pack: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)
    records: int = 0
    findings: int = 0
    errors: int = 0
    evaluated: int = 0
    done: int = 0
    gen_s: float = 0.0
    parse_t: Clock = field(default_factory=Clock)
    eval_t: Clock = field(default_factory=Clock)
    e2e_t: Clock = field(default_factory=Clock)
    largest: tuple[int, dict[str, Any] | None] = (-1, None)


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000, help="case files to generate")
    parser.add_argument("--seed", type=int, default=20250630)
    parser.add_argument(
        "--chunk",
        type=int,
        default=1_000,
        help="case files generated and held at a time (bounds memory; default 1000)",
    )
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    return args


def _generate(gen: Generator, first: int, last: int, tally: Tally) -> list[dict[str, Any]]:
    """A chunk of case-file dicts. Generation is not measured; the records are counted and
    the largest case file kept for (6)."""
    t0 = time.perf_counter()
    cases = [gen.case(i) for i in range(first, last)]
    tally.gen_s += time.perf_counter() - t0
    for c in cases:
        tally.per_pack[c["jurisdiction"]] += 1
        size = records_in(c)
        tally.records += size
        if size > tally.largest[0]:
            tally.largest = (size, c)
    gc.collect()
    return cases


def _parse(cases: list[dict[str, Any]], tally: Tally) -> list:
    """(1) parse (validation), timed. Each result is dropped, as a streaming sweep would:
    holding thousands of parsed cases makes the cyclic GC rescan them and skews the figure.
    Returns the parsed cases, parsed again untimed: the input of (2)."""
    tally.parse_t.start()
    for data in cases:
        try:
            parse_case(data)
        except CaseFileError as e:
            tally.errors += 1
            if tally.errors <= 5:
                print(f"  INVALID {data['establishment']['id']}:")
                for p in e.problems[:10]:
                    print(f"    {p}")
    tally.parse_t.stop()
    parsed = []
    for data in cases:
        with contextlib.suppress(CaseFileError):
            parsed.append(parse_case(data))
    gc.collect()
    return parsed


def _evaluate(parsed: list, tally: Tally) -> None:
    """(2) evaluate the parsed cases, timed."""
    tally.eval_t.start()
    for case in parsed:
        report = evaluate(case)
        tally.statuses[report.status] += 1
        tally.findings += len(report.findings)
    tally.eval_t.stop()
    tally.evaluated += len(parsed)


def _end_to_end(cases: list[dict[str, Any]], tally: Tally) -> None:
    """(3) parse + evaluate, end to end, timed."""
    tally.e2e_t.start()
    for data in cases:
        try:
            evaluate(parse_case(data))
            tally.done += 1
        except CaseFileError:
            pass
    tally.e2e_t.stop()


def _progress(finished: int, n: int, started: float, tally: Tally) -> None:
    print(
        f"  {finished:>9,} / {n:,} ({100 * finished / n:3.0f}%)"
        f"  {time.perf_counter() - started:7.1f} s elapsed;"
        f" so far: parse {tally.parse_t.rate(finished):,.0f}/s,"
        f" evaluate {tally.eval_t.rate(tally.evaluated):,.0f}/s,"
        f" both {tally.e2e_t.rate(tally.done):,.0f}/s"
    )


def _results(tally: Tally, n: int, chunk: int, cli: list[float]) -> None:
    """The figures (1) to (6) and the status histogram."""
    evaluated, done = tally.evaluated, tally.done
    per_pack = tally.per_pack
    print()
    print(f"results ({', '.join(f'{k} {v:,}' for k, v in sorted(per_pack.items()))};")
    print(f"  generation, not measured: {tally.gen_s:,.1f} s)")
    print(f"  invalid case files (CaseFileError):  {tally.errors:,}  (expected 0)")
    print(f"  (1) parse (validation):      {tally.parse_t.line(n)}")
    target = "MET" if tally.eval_t.rate(evaluated) >= TARGET_RATE else "NOT MET"
    print(
        f"  (2) evaluate (parsed cases): {tally.eval_t.line(evaluated)}"
        f"  target ≥ {TARGET_RATE:,} case files/s on one core: {target}"
    )
    target = "MET" if tally.e2e_t.rate(done) >= TARGET_RATE else "NOT MET"
    print(
        f"  (3) parse + evaluate:        {tally.e2e_t.line(done)}"
        f"  target ≥ {TARGET_RATE:,} case files/s on one core: {target}"
    )
    print(f"  (4) peak memory (ru_maxrss): {_peak_mib():,.0f} MiB ({chunk:,} cases held at a time)")
    print(
        f"  (5) records per case:        {tally.records / n:,.1f} on average"
        f" ({tally.records:,} in all)"
    )
    print(f"      findings per case:       {tally.findings / max(evaluated, 1):,.1f} on average")
    if cli:
        lo, mid = min(cli), statistics.median(cli)
        target = "MET" if mid < TARGET_CLI else "NOT MET"
        print(
            f"  (6) `fogkeeper evaluate FILE` ({tally.largest[0]} records, {len(cli)} runs):"
            f" min {lo:.3f} s, median {mid:.3f} s;  target < {TARGET_CLI} s: {target}"
        )
    print("  status histogram:")
    for status, count in tally.statuses.most_common():
        print(f"    {status:<14} {count:>9,}  {100 * count / max(evaluated, 1):5.1f}%")


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    n = args.count
    chunk = max(1, min(args.chunk, n // 10))  # at least ten chunks: a progress line each 10%
    print(
        f"fogkeeper engine benchmark: {n:,} case files in chunks of {chunk:,}, "
        f"seed {args.seed}, Python {sys.version.split()[0]}"
    )
    print(f"  the engine: {native.describe()}")
    print(f"  peak RSS at start: {_peak_mib():,.0f} MiB")

    gen = Generator(args.seed)
    tally = Tally()
    started = time.perf_counter()
    next_report = 0.1
    for first in range(0, n, chunk):
        cases = _generate(gen, first, min(first + chunk, n), tally)
        parsed = _parse(cases, tally)
        _evaluate(parsed, tally)
        del parsed
        gc.collect()
        _end_to_end(cases, tally)
        finished = first + len(cases)
        if finished >= next_report * n or finished == n:
            next_report = (int(10 * finished / n) + 1) / 10
            _progress(finished, n, started, tally)
        del cases

    # (6) the command on one case file: the largest generated one
    largest = tally.largest[1]
    cli = _cli_times(largest) if largest is not None else []
    _results(tally, n, chunk, cli)
    return 0


if __name__ == "__main__":
    sys.exit(main())

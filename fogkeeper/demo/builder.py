"""The demo's builder: one agency's program as plain data (data.py), one well-run
establishment at a time (`_Builder`), with its parcel, permits, devices, pump-outs and waste
cooking oil, its staff and trainings (training.py) and its inspections
(inspections.py), dated back from `as_of` by a seeded random generator; and the steps
with which stories.py gives some of them trouble. The package (__init__.py) builds and
loads them."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from .data import Device, Program, Shape, _years
from .inspections import _Inspections
from .training import _Training

SEED = 20091020
STAFF_USERNAME = "staff"
STAFF_PASSWORD = "fogkeeper-demo"
EARLIEST_AS_OF = date(2025, 1, 1)  # the Town's program needs a year of history

FIRST = (
    "Ana",
    "Luis",
    "Mei",
    "Sam",
    "Priya",
    "Omar",
    "Jo",
    "Kim",
    "Raul",
    "Tess",
    "Ivan",
    "Nia",
    "Carlos",
    "Maria",
    "Duc",
    "Linh",
    "Jorge",
    "Rosa",
    "Kevin",
    "Aisha",
    "Diego",
    "Hana",
    "Marcus",
    "Sofia",
    "Tomas",
    "Yuki",
    "Elena",
    "Andre",
    "Gabriela",
    "Noah",
)
LAST = (
    "Ruiz",
    "Chen",
    "Patel",
    "Nguyen",
    "Smith",
    "Garcia",
    "Okafor",
    "Kowalski",
    "Lee",
    "Hernandez",
    "Tran",
    "Lopez",
    "Morales",
    "Kim",
    "Johnson",
    "Flores",
    "Reyes",
    "Park",
    "Castillo",
    "Brooks",
    "Silva",
    "Ortiz",
    "Sato",
    "Mendoza",
)


OPERATOR_SUFFIXES = ("Foods LLC", "Restaurant Group Inc", "Hospitality LLC", "Partners LP")


class _Builder(_Training, _Inspections):
    """Builds one agency's program; `fse()` makes a well-run establishment, the stories of
    the pack's program file (stories.py) then give some of them trouble."""

    def __init__(self, pack_id: str, as_of: date, seed: int):
        from fogkeeper.rules.packs import default_registry

        from .written import read

        self.pack = default_registry().get(pack_id)
        written = read(pack_id)
        self.shape = Shape.read(written["builder"])
        self.A = as_of
        self.rng = random.Random(f"{seed}:{pack_id}:{as_of.isoformat()}")
        effective = self.pack.effective
        # records kept: four years, and in the Town from just before the ordinance
        self.start = max(_years(as_of, -4), effective - timedelta(days=60))
        self.inspections_from = max(self.start, effective + timedelta(days=30))
        self.checklist = list(self.pack.checklist)
        self.program = Program(pack_id, as_of, dict(written["agency"], pack=pack_id))
        self.fse_no = self.shape.first_number
        self.manifest_no = 0
        self.inspection_no = 0
        self.incident_no = 0
        self.sample_no = 0
        self.by_name: dict[str, dict] = {}
        self.licensed_pumpers: list[str] = []
        self.oil_hauler: str | None = None

    # -- helpers

    def ago(self, days: int) -> date:
        return self.A - timedelta(days=days)

    def pick(self, seq):
        return self.rng.choice(seq)

    def between(self, lo: date, hi: date) -> date:
        if hi <= lo:
            return lo
        return lo + timedelta(days=self.rng.randint(0, (hi - lo).days))

    def person(self) -> str:
        return f"{self.pick(FIRST)} {self.pick(LAST)}"

    def owner(self, key: str, name: str, address: str) -> str:
        self.program.owners[key] = {"name": name, "mailing_address": address}
        return key

    def free_apn(self, make) -> str:
        """An assessor's parcel number drawn by `make` that no parcel has yet."""
        while (apn := make()) in self.program.parcels:
            pass
        return apn

    def parcel(self, apn: str, address: str, owner: str, multi_tenant: bool = False) -> str:
        self.program.parcels[apn] = {
            "apn": apn,
            "address": address,
            "owner": owner,
            "multi_tenant": multi_tenant,
        }
        return apn

    def hauler(self, code: str, name: str, licensed: bool = True) -> None:
        self.program.haulers.append(
            {
                "id": code,
                "name": name,
                "licensed": licensed,
                "licence_number": f"LG-{self.rng.randint(10000, 99999)}" if licensed else "",
                "licence_expires_on": _years(self.A, 1) if licensed else None,
            }
        )

    # -- a well-run establishment

    def fse(
        self,
        name: str,
        address: str,
        *,
        parcel: str | None = None,
        segment: str | None = None,
        opened: int | date | None = None,
        operator: str | None = None,
        operator_since: int | None = None,
        previous_operator: str | None = None,
        category: str = "full_service",
        on_sewer: bool = True,
        closed: int | None = None,
        devices: list[Device] | None = None,
        permit: bool = True,
        permit_issued: int | None = None,
        permit_frequency: int | None = None,
        yellow_grease: int | None = None,
        employees: int | None = None,
        last_training: int | None = None,
        last_inspection: int | None = None,
    ) -> dict:
        rng, A = self.rng, self.A
        self.fse_no += self.rng.randint(1, 6)
        code = f"{self.shape.establishment_prefix}-{self.fse_no:04d}"
        if opened is None:  # the older restaurants may predate the chapter
            opened = rng.randint(*self.shape.opened_days)
        opened_on = opened if isinstance(opened, date) else self.ago(opened + rng.randint(0, 9))
        closed_on = self.ago(closed) if closed is not None else None
        end = closed_on or A  # records stop when the establishment closes
        operator = operator or f"{name.split(' ')[0]} {self.pick(OPERATOR_SUFFIXES)}"
        since = self.ago(operator_since) if operator_since is not None else opened_on
        est = {
            "id": code,
            "name": name,
            "category": category,
            "on_public_sewer": on_sewer,
            "opened_on": opened_on,
            "closed_on": closed_on,
            "operator": {"name": operator, "since": since},
        }
        rec = self._record(est, address, parcel, segment)
        if previous_operator:
            rec["_previous_operators"].append(
                {"name": previous_operator, "since": opened_on, "until": since}
            )

        if devices is None:
            devices = [Device()]
        if permit:
            self._permits(
                rec,
                {d.kind for d in devices},
                opened_on,
                operator,
                previous_operator,
                operator_since,
                permit_issued,
                permit_frequency,
                yellow_grease,
            )
        for k, spec in enumerate(devices, start=1):  # devices and their pump-outs
            self._device(rec, k, spec, opened_on, end)
        self._yellow_grease(rec, yellow_grease, opened_on, end)
        self._people(rec, opened_on, end, employees, last_training)
        self._inspections(rec, opened_on, end, last_inspection)
        self.program.establishments.append(rec)
        self.by_name[name] = rec
        return rec

    def _record(self, est: dict, address: str, parcel: str | None, segment: str | None) -> dict:
        """An establishment's records, none yet, and what the database keeps beside them."""
        est.update(
            {
                "remodeled_on": None,
                "food_grinder": False,
                "food_grinder_installed_on": None,
                "variance_granted": False,
                "interceptor_exception": None,
                "interceptor_plans_submitted_on": None,
                "changes": [],
            }
        )
        return {
            "establishment": est,
            "permit": None,
            "devices": [],
            "services": [],
            "yellow_grease_pickups": [],
            "employees": [],
            "trainings": [],
            "inspections": [],
            "incidents": [],
            "enforcement": [],
            "_address": address,
            "_parcel": parcel,
            "_segment": segment or self.pick(self.program.segments)["code"],
            "_previous_operators": [],
            "_old_permits": [],
            "_rates": {},
        }

    def _permits(
        self,
        rec: dict,
        kinds: set[str],
        opened_on: date,
        operator: str,
        previous_operator: str | None,
        operator_since: int | None,
        permit_issued: int | None,
        permit_frequency: int | None,
        yellow_grease: int | None,
    ) -> None:
        """The permit in force, and the one before it when the establishment was open then."""
        rng, shape = self.rng, self.shape
        if permit_frequency is None:
            permit_frequency = self._permit_frequency(kinds)
        if permit_issued is None:
            permit_issued = rng.randint(*shape.permit_issued_days)
        if operator_since is not None:  # issued to the operator before
            permit_issued = max(permit_issued, operator_since + rng.randint(60, 200))
        issued = max(self.ago(permit_issued), opened_on)
        holder = previous_operator if operator_since is not None else operator
        holder = holder or operator
        rec["permit"] = {
            "number": self._permit_number(issued),
            "holder": holder,
            "issued_on": issued,
            "expires_on": _years(issued, shape.permit_term_years) - timedelta(days=1),
            "renewal_applied_on": None,
            "service_frequency_days": permit_frequency,
            "yellow_grease_frequency_days": yellow_grease if shape.permit_yellow_grease else None,
        }
        # the permit before this one, superseded by the renewal
        old_issued = _years(issued, -shape.permit_term_years)
        if old_issued >= opened_on:
            rec["_old_permits"].append(
                {
                    "number": self._permit_number(old_issued),
                    "holder": holder,
                    "issued_on": old_issued,
                    "expires_on": issued - timedelta(days=1),
                    "service_frequency_days": permit_frequency,
                    "renewal_applied_on": issued - timedelta(days=rng.randint(65, 90)),
                }
            )

    def _permit_frequency(self, kinds: set[str]) -> int | None:
        """The service frequency a permit sets, by the program's shape (`permit_frequency`)."""
        rule = self.shape.permit_frequency
        if "chance" not in rule:
            return rule["trap_only"] if kinds == {"trap"} else self.pick(tuple(rule["choose"]))
        if self.rng.random() < rule["chance"] and rule["with_kind"] in kinds:
            return self.pick(tuple(rule["choose"]))
        return None

    def _yellow_grease(self, rec: dict, yellow_grease: int | None, opened_on: date, end: date):
        """Waste cooking oil picked up every `yellow_grease` days (or by chance, less often)."""
        rng, A = self.rng, self.A
        if yellow_grease or rng.random() < 0.3:
            every = yellow_grease or self.pick((30, 45, 60))
            when = self.ago(rng.randint(3, every - 8)) if end == A else end - timedelta(days=5)
            pickups = []
            while when >= max(self.start, opened_on):
                pickups.append(
                    {
                        "date": when,
                        "hauler": self.oil_hauler,
                        "gallons": float(self.pick((35, 55, 55, 110))),
                    }
                )
                when -= timedelta(days=every - rng.randint(2, 7))
            rec["yellow_grease_pickups"] = pickups[::-1]

    def _permit_number(self, issued: date) -> str:
        return f"{self.shape.permit_prefix}-{issued.year}-{self.fse_no:04d}"

    def _device(self, rec: dict, k: int, spec: Device, opened_on: date, end: date) -> None:
        rng = self.rng
        interceptor = spec.kind == "interceptor"
        dev: dict[str, Any] = {
            "id": f"{'GI' if interceptor else 'GT'}-{k}",
            "kind": spec.kind,
            "installed_on": spec.installed or opened_on - timedelta(days=rng.randint(5, 40)),
            "capacity_gallons": spec.capacity
            or (float(self.pick((750, 1000, 1000, 1500, 2000))) if interceptor else 40.0),
            "design_depth_inches": spec.depth
            or (float(self.pick((42, 48, 48, 54, 60))) if interceptor else 12.0),
            "compartments": spec.compartments or (self.pick((2, 2, 3)) if interceptor else 1),
            "manhole_diameter_inches": spec.manhole or (24.0 if interceptor else None),
            "service_frequency_days": spec.frequency,
        }
        if not interceptor and spec.frequency is None and self.shape.trap_frequency_days:
            dev["service_frequency_days"] = self.shape.trap_frequency_days
        rec["devices"].append(dev)
        permit = rec["permit"] or {}
        by_kind = self.pack.default_frequency(spec.kind, self.A)
        default = by_kind.days_equivalent() if by_kind is not None else None
        freq = dev["service_frequency_days"] or permit.get("service_frequency_days") or default
        pace = spec.serviced_every or freq or 90
        # a rate that fills the device to 25% in 1.2 frequencies: the review agrees with it
        rate = 0.25 * dev["design_depth_inches"] / (1.2 * (freq or pace)) * spec.rate
        rec["_rates"][dev["id"]] = rate
        hauler = spec.hauler or self.pick(self.licensed_pumpers)
        last = spec.last_service if spec.last_service is not None else rng.randint(5, pace - 12)
        when = self.ago(last) if end == self.A else end - timedelta(days=rng.randint(1, 10))
        first = max(dev["installed_on"], self.start)
        dates = []
        while when >= first:
            dates.append(when)
            when -= timedelta(days=pace - rng.randint(3, max(4, pace // 8)))
        dates.reverse()
        previous = None
        for when in dates:
            days = (when - previous).days if previous else pace * rng.uniform(0.8, 0.95)
            self.service(rec, dev, when, total=rate * rng.uniform(0.955, 1.0) * days, hauler=hauler)
            previous = when

    def service(self, rec: dict, dev: dict, when: date, *, total: float | None, **extra) -> dict:
        rng = self.rng
        self.manifest_no += 1
        hauler = extra.pop("hauler", None) or self.pick(self.licensed_pumpers)
        s: dict[str, Any] = {
            "id": f"M-{when.year % 100:02d}{self.manifest_no:05d}",
            "device": dev["id"],
            "date": when,
            "hauler": hauler,
            "full_pump_out": True,
            "gallons_removed": round(dev["capacity_gallons"] * rng.uniform(0.85, 1.0), 0),
        }
        if total is not None:
            fog = total * rng.uniform(0.3, 0.45)
            s["fog_inches"] = round(fog, 2)
            s["solids_inches"] = round(total - fog, 2)
            if dev["kind"] == "interceptor":
                s["final_chamber_floating_oil"] = False
                s["sludge_to_outlet_inches"] = round(
                    dev["design_depth_inches"] * rng.uniform(0.25, 0.45), 1
                )
        s.update(extra)
        rec["services"].append(s)
        rec["services"].sort(key=lambda x: (x["date"], x["id"]))
        return s

    @staticmethod
    def limit(rec: dict, parameter: str = "oil_and_grease", at_most: float = 100.0) -> None:
        """A discharge limit written into the permit (the seed ordinances set none)."""
        limits = rec["permit"].setdefault("discharge_limits", {})
        limits[parameter] = {"max": at_most, "unit": "mg/L"}
        rec["permit"]["_conditions"] = (
            f"{parameter.replace('_', ' ').capitalize()} in the discharge not to exceed "
            f"{at_most:g} mg/L (EPA Method 1664)."
        )

    def incident(self, rec: dict | None, days_ago: int, **fields) -> dict:
        self.incident_no += 1
        when = self.ago(days_ago)
        inc = {
            "id": f"SSO-{when.year}-{self.incident_no:02d}",
            "date": when,
            "kind": "overflow",
            "attributed": False,
            "gallons": None,
            "written_report_on": None,
            "clearance_inspection_on": None,
        }
        inc.update(fields)
        if rec is None:
            self.program.unmatched_incidents.append(inc)
        else:
            rec["incidents"].append(inc)
            rec["incidents"].sort(key=lambda i: i["date"])
        return inc

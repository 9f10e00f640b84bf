"""A synthetic FOG program at a city's proportions, for measuring the sweep:
`python manage.py generate --pack PACK --establishments N --years Y`.

Everything the ordinance decides comes from the pack: its device kinds (mostly the large
ones, those with design limits, some of the others), their default frequencies, the permit
term, the categories, the checklist, and which rules (yellow grease, operation changes,
exceptions) it has at all. Per establishment, on average: 1.4 grease control devices,
pumped out at frequencies around the pack's defaults (every 30 to 180 days where it sets
none) over the years (about 1.5 million pump-outs for 25,000
establishments and 10 years), about 10 employees over the years with their BMP trainings
and signed attendance, about 4 inspections answering part of the checklist and measuring
the devices, waste cooking oil pickups at some, an incident at a few, a permit at most.
Where the pack sets discharge limits, some interceptors' outlets are sampled (a few samples
above a limit, most of those re-sampled within it); where it allows approved exceptions to
its design limits, some devices of an older design have theirs.
Parcels (some with several tenants), owners, operators (some changed), sewer segments,
laterals and haulers (a few unlicensed) come with them. About half the establishments are
well run; the others have defects drawn at random (late, partial or over-limit pump-outs,
unlicensed haulers, missed or unsigned trainings, failed checklist items, overflows).

Deterministic for a seed. Rows are generated a chunk of establishments at a time and written
with PostgreSQL's COPY (with `bulk_create` on other databases), with ids assigned here so
that no row has to be read back; the sequences are reset afterwards.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

YEAR = 365
FIRST = ("Ana", "Luis", "Mei", "Sam", "Priya", "Omar", "Jo", "Kim", "Raul", "Tess", "Ivan")
LAST = ("Ruiz", "Chen", "Patel", "Nguyen", "Smith", "Garcia", "Okafor", "Lee", "Tran", "Park")
FOOD = (
    "Taqueria", "Noodle Bar", "Diner", "Pizzeria", "Grill", "Bistro", "Bakery", "Sushi",
    "Cafe", "Burgers", "Kitchen", "Pho", "Deli", "BBQ", "Cantina", "Wok",
)  # fmt: skip
STREETS = (
    "Main Street", "Oak Avenue", "Harbor Boulevard", "Mission Road", "Pacific Coast Highway",
    "Elm Street", "Broadway", "Valley View Drive", "Canyon Road", "Center Street",
    "Palm Avenue", "Ocean Boulevard", "Station Way", "Market Street", "Vista Drive",
)  # fmt: skip
# pump-out frequencies (days) where the pack sets no default for a kind: large, small devices
LARGE_FREQUENCIES = ((60, 0.15), (90, 0.45), (120, 0.25), (180, 0.15))
SMALL_FREQUENCIES = ((30, 0.5), (60, 0.5))
# around a default of D days: D itself mostly, sometimes more often
AROUND_DEFAULT = ((1, 0.6), (2 / 3, 0.25), (1 / 2, 0.15))
DEVICES_PER_FSE = ((0, 0.02), (1, 0.64), (2, 0.28), (3, 0.06))  # 1.38 on average
LARGE_SHARE = 0.83  # of the devices, those of the large kinds
OTHER_CATEGORIES_SHARE = 0.03  # of the establishments, those not in the pack's default category
ACCESS_ITEM = "inspection.access_refused"

Progress = Callable[[str], None]


def _weighted(rng: random.Random, pairs) -> Any:
    x = rng.random()
    for value, p in pairs:
        x -= p
        if x < 0:
            return value
    return pairs[-1][0]


def _pack_value(pack, name: str, on: date, default: Any = None) -> Any:
    from fogkeeper.rules.errors import ParameterNotInForce

    try:
        return pack.param(name, on) if name in pack.parameters else default
    except ParameterNotInForce:
        return default


def _initials(title: str) -> str:
    """A device code's prefix from its kind's title: "Grease interceptor" -> "GI"."""
    words = [w for w in title.replace("-", " ").split() if w[:1].isalpha()]
    return "".join(w[0] for w in words[:3]).upper() or "D"


class _Ordinance:
    """What the generator reads of the pack, in force on `as_of`: the device kinds (the large
    ones: those with design limits or required to have, else the first), their frequencies,
    the categories, the permit term and which optional parts of a program the pack has."""

    def __init__(self, pack, as_of: date):
        self.pack, self.on = pack, as_of
        kinds = list(pack.device_kinds)
        limits = _pack_value(pack, "gcd.design_limits", as_of, {}) or {}
        required = _pack_value(pack, "gcd.required_device_kinds", as_of, []) or []
        self.large = {k for k in kinds if k in limits or k in required} or {kinds[0]}
        small = [k for k in kinds if k not in self.large]
        large = [k for k in kinds if k in self.large]
        share = LARGE_SHARE if small else 1.0
        self.kinds = [(k, share / len(large)) for k in large]
        self.kinds += [(k, (1 - share) / len(small)) for k in small]
        partial = _pack_value(pack, "gcd.partial_pump_out_device_kinds", as_of, None)
        self.fully_pumped = set(partial) if partial is not None else self.large
        self.frequencies = {k: self._frequencies(k) for k in kinds}
        self.prefix = {k: _initials(pack.kind_title(k)) for k in kinds}
        others = [c for c in pack.categories if c != pack.default_category]
        self.other_categories = others
        self.required_categories = _pack_value(pack, "gcd.required_categories", as_of, None)
        term = self._duration("permit.term") or self._duration("permit.max_term")
        has_permits = any(rule.startswith("permit.") for rule in pack.rules)
        self.permit_term = term.days_equivalent() if term and has_permits else None
        lead = self._duration("permit.renewal_application_lead")
        self.renewal_lead = lead.days_equivalent() if lead else None
        self.yellow_grease = pack.has("yellow_grease.collection_overdue")
        self.changes = pack.has("permit.change_not_notified")
        self.exceptions = pack.has("gcd.trap_needs_interceptor")
        self.design_limits = limits
        self.discharge_limits = {}
        if pack.has("discharge.limit_exceeded"):
            self.discharge_limits = _pack_value(pack, "discharge.limits", as_of) or {}
        self.approves = pack.has("gcd.design_nonconforming") and bool(
            _pack_value(pack, "gcd.exceptions_allowed", as_of, False)
        )

    def failing(self, kind: str, values: dict[str, float | int | None]) -> list[str]:
        """The design fields of a device of `kind` outside the pack's limits."""
        failed = []
        for name, bound in (self.design_limits.get(kind) or {}).items():
            value = values.get(name)
            if value is not None and (
                ("min" in bound and value < bound["min"])
                or ("max" in bound and value > bound["max"])
            ):
                failed.append(name)
        return failed

    def _duration(self, name: str):
        value = _pack_value(self.pack, name, self.on)
        return self.pack.duration(name, value) if value is not None else None

    def days(self, name: str, default: int) -> int:
        d = self._duration(name)
        return d.days_equivalent() if d is not None else default

    def _frequencies(self, kind: str) -> tuple:
        """(days, probability) pairs of the kind's pump-out frequency, snapped down to the
        frequencies the pack allows, if it lists them."""
        default = self.pack.default_frequency(kind, self.on)
        if default is not None:
            base = default.days_equivalent()
            pairs = [(max(1, round(base * m)), p) for m, p in AROUND_DEFAULT]
        else:
            pairs = list(LARGE_FREQUENCIES if kind in self.large else SMALL_FREQUENCIES)
        allowed = sorted(_pack_value(self.pack, "gcd.allowed_frequencies_days", self.on, []))
        if allowed:
            pairs = [(max([a for a in allowed if a <= f] or allowed[:1]), p) for f, p in pairs]
        return tuple(pairs)

    def kind(self, x: float) -> str:
        for kind, p in self.kinds:
            x -= p
            if x < 0:
                return kind
        return self.kinds[-1][0]

    def category(self, x: float) -> str:
        if not self.other_categories or x >= OTHER_CATEGORIES_SHARE:
            return self.pack.default_category
        share = OTHER_CATEGORIES_SHARE / len(self.other_categories)
        return self.other_categories[min(int(x / share), len(self.other_categories) - 1)]

    def needs_device(self, category: str) -> bool:
        return self.required_categories is None or category in self.required_categories


class _Table:
    """Rows of one model, as tuples of the fields named, plus the model's defaults."""

    def __init__(self, model, fields: list[str]):
        self.model = model
        self.fields = fields
        rest = [
            f for f in model._meta.concrete_fields if f.attname not in fields and not f.primary_key
        ]
        self.columns = [model._meta.get_field(a).column for a in fields] + [f.column for f in rest]
        self.defaults = tuple(self._default(f) for f in rest)
        self.rest = [f.attname for f in rest]
        self.rows: list[tuple] = []
        self.count = 0

    @staticmethod
    def _default(f) -> Any:
        value = f.get_default()
        if value is None and not f.null:
            raise ValueError(f"{f.model.__name__}.{f.name} needs a value")
        return json.dumps(value) if isinstance(value, dict | list) else value


class _Writer:
    """Writes tables: COPY on PostgreSQL, bulk_create elsewhere."""

    def __init__(self):
        from django.db import connection

        self.connection = connection
        self.postgres = connection.vendor == "postgresql"

    def flush(self, table: _Table) -> None:
        rows = table.rows
        if not rows:
            return
        if self.postgres:
            qn = self.connection.ops.quote_name
            sql = (
                f"COPY {qn(table.model._meta.db_table)} "
                f"({', '.join(qn(c) for c in table.columns)}) FROM STDIN"
            )
            defaults = table.defaults
            with self.connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
                write = copy.write_row
                for row in rows:
                    write(row + defaults)
        else:
            model, fields = table.model, table.fields
            model.objects.bulk_create(
                [model(**dict(zip(fields, row, strict=True))) for row in rows], batch_size=2000
            )
        table.count += len(rows)
        rows.clear()


@dataclass
class GenerateResult:
    agency: Any
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def pack_to_generate(pack: str | None) -> str:
    """The id of the pack a program is generated on: `pack`, else the only pack the
    deployment knows. No pack is the default among several: each is an ordinance, and which
    one a synthetic city runs on is the caller's to say."""
    from fogkeeper.rules.packs import default_registry

    known = default_registry().ids()
    if pack is None and len(known) == 1:
        return known[0]
    if pack is None:
        raise ValueError(f"name the jurisdiction pack with --pack (known: {', '.join(known)})")
    if pack not in known:
        raise ValueError(f"unknown jurisdiction pack {pack!r} (known: {', '.join(known)})")
    return pack


def generate_program(
    *,
    establishments: int,
    years: int,
    as_of: date,
    agency_code: str = "synthetic",
    pack: str,
    seed: int = 1,
    chunk: int = 1000,
    agency_name: str | None = None,
    letterhead: str | None = None,
    progress: Progress | None = None,
) -> GenerateResult:
    """Create an agency with a synthetic program of `establishments` FSEs and `years` of
    history up to `as_of` under the pack `pack`, in one transaction."""
    from django.db import transaction

    from fogkeeper.registry.models import Agency

    if establishments < 1 or years < 1:
        raise ValueError("establishments and years must be at least 1")
    pack = pack_to_generate(pack)
    if Agency.objects.filter(code=agency_code).exists():
        raise ValueError(f"agency {agency_code!r} already exists")
    started = time.perf_counter()
    with transaction.atomic():
        gen = _Generator(
            establishments=establishments,
            years=years,
            as_of=as_of,
            agency_code=agency_code,
            pack=pack,
            seed=seed,
            agency_name=agency_name,
            letterhead=letterhead,
        )
        for first in range(0, establishments, chunk):
            last = min(first + chunk, establishments)
            for i in range(first, last):
                gen.establishment(i)
            gen.flush()
            if progress is not None:
                c = gen.counts()
                progress(
                    f"  {last:,}/{establishments:,} establishments: {c['devices']:,} devices, "
                    f"{c['services']:,} pump-outs, {c['employees']:,} employees, "
                    f"{c['inspections']:,} inspections ({time.perf_counter() - started:.1f} s)"
                )
        gen.finish()
    gen.analyze()
    return GenerateResult(gen.agency, gen.counts(), time.perf_counter() - started)


class _Generator:
    def __init__(
        self, *, establishments, years, as_of, agency_code, pack, seed, agency_name, letterhead
    ):
        from fogkeeper.audit.services import audit_record
        from fogkeeper.inspections.models import Inspection
        from fogkeeper.registry.models import (
            Agency,
            FoodServiceEstablishment,
            GreaseControlDevice,
            Operator,
            Parcel,
            PropertyOwner,
            normalise_address,
        )
        from fogkeeper.training.models import Employee, Training

        self.normalise = normalise_address
        self.rng = random.Random(seed)
        self.n = establishments
        self.years = years
        self.A = as_of.toordinal()
        self.S = self.A - years * YEAR
        agency = Agency(
            code=agency_code,
            name=agency_name or f"Synthetic City ({establishments:,} establishments)",
            pack=pack,
            letterhead="Synthetic City\nFOG Program" if letterhead is None else letterhead,
        )
        agency.full_clean()
        agency.save()
        self.agency = agency
        self._audit = lambda after: audit_record(
            action="generate.load",
            obj=agency,
            agency=agency,
            after=after,
            reason="python manage.py generate",
        )
        self.ordinance = _Ordinance(agency.get_pack(), as_of)
        p = agency.get_pack()
        self.items = sorted(p.checklist)
        self.gcd_items = [i for i in self.items if i.startswith("gcd.")]
        self.access_item = ACCESS_ITEM if ACCESS_ITEM in p.checklist else None
        self.other_items = [i for i in self.items if not i.startswith("gcd.") and i != ACCESS_ITEM]
        refresher = self.ordinance.days("training.refresher_interval", YEAR)
        self.refresher = (refresher * 11 // 12, refresher)
        self.new_hire_window = self.ordinance.days("training.new_hire_window", 0)
        self.models = (
            PropertyOwner,
            Parcel,
            Operator,
            FoodServiceEstablishment,
            GreaseControlDevice,
            Employee,
            Training,
            Inspection,
        )

        self._small_tables(agency, establishments)
        self._first_ids()
        self._tables()
        # Samples and approved exceptions draw from a generator of their own, so that a pack
        # with them gets the same establishments as one without.
        self.extra_rng = random.Random(f"{seed}:samples-and-exceptions")
        self.approver = p.titles.get("manager", "")
        self.writer = _Writer()
        self.manifest = 0
        self.incident_no = 0
        self.plaza: tuple[int, int] | None = None  # (parcel id, tenants so far)
        self.owners: list[int] = []

    def _small_tables(self, agency, establishments: int) -> None:
        """The sewer segments and the haulers, through the ORM (their ids are needed)."""
        from fogkeeper.registry.models import Hauler, SewerSegment

        rng = self.rng
        segments = [
            SewerSegment(
                agency=agency,
                code=f"S-{k:05d}",
                description=f"{rng.choice(STREETS)}, block {k}",
                prone_to_blockage=rng.random() < 0.05,
            )
            for k in range(1, max(10, establishments // 15) + 1)
        ]
        SewerSegment.objects.bulk_create(segments, batch_size=2000)
        self.segments = [s.pk for s in segments]
        pumpers = max(6, establishments // 400)
        haulers = [
            Hauler(
                agency=agency,
                code=f"H-{k:04d}",
                name=f"{rng.choice(LAST)} Pumping {k}",
                licensed=True,
                licence_number=f"LG-{k:05d}",
            )
            for k in range(1, pumpers + 1)
        ]
        unlicensed = [
            Hauler(agency=agency, code=f"X-{k:04d}", name=f"Cash Vac {k}", licensed=False)
            for k in range(1, max(1, establishments // 5000) + 1)
        ]
        oil = [
            Hauler(agency=agency, code=f"R-{k:04d}", name=f"Renderer {k}")
            for k in range(1, max(2, establishments // 2000) + 1)
        ]
        Hauler.objects.bulk_create(haulers + unlicensed + oil)
        self.pumpers = [h.pk for h in haulers]
        self.unlicensed = [h.pk for h in unlicensed]
        self.oil_haulers = [h.pk for h in oil]

    def _first_ids(self) -> None:
        # ids are assigned here, after the largest one already in the table
        self.next_id = {}
        for model in self.models:
            last = model.objects.order_by("-pk").values_list("pk", flat=True).first()
            self.next_id[model] = (last or 0) + 1

    def _tables(self) -> None:
        """The tables written by COPY (or bulk_create), each with its columns."""
        from fogkeeper.permits.models import Permit
        from fogkeeper.registry.models import (
            FoodServiceEstablishment,
            GreaseControlDevice,
            Lateral,
            OperationChange,
            Operator,
            OperatorTenure,
            Parcel,
            PropertyOwner,
        )

        T = _Table
        self.t_owner = T(PropertyOwner, ["id", "agency_id", "name", "mailing_address"])
        self.t_parcel = T(Parcel, ["id", "agency_id", "apn", "address", "owner_id", "multi_tenant"])
        self.t_operator = T(Operator, ["id", "agency_id", "name"])
        self.t_fse = T(
            FoodServiceEstablishment,
            [
                "id", "agency_id", "code", "name", "address", "normalised_address", "parcel_id",
                "category", "on_public_sewer", "opened_on", "closed_on", "remodeled_on",
                "food_grinder", "food_grinder_installed_on", "variance_granted",
                "interceptor_exception", "interceptor_plans_submitted_on",
            ],
        )  # fmt: skip
        self.t_tenure = T(OperatorTenure, ["establishment_id", "operator_id", "since", "until"])
        self.t_change = T(OperationChange, ["establishment_id", "date", "kind", "notified_on"])
        self.t_lateral = T(Lateral, ["establishment_id", "segment_id"])
        self.t_device = T(
            GreaseControlDevice,
            [
                "id", "establishment_id", "code", "kind", "installed_on", "capacity_gallons",
                "design_depth_inches", "compartments", "manhole_diameter_inches",
                "service_frequency_days",
            ],
        )  # fmt: skip
        self.t_permit = T(
            Permit,
            [
                "agency_id", "establishment_id", "number", "holder", "issued_on", "expires_on",
                "renewal_applied_on", "service_frequency_days", "yellow_grease_frequency_days",
                "status", "ended_on",
            ],
        )  # fmt: skip
        self._history_tables()
        self.tables = [
            self.t_owner, self.t_parcel, self.t_operator, self.t_fse, self.t_tenure,
            self.t_change, self.t_lateral, self.t_device, self.t_exception, self.t_permit,
            self.t_service, self.t_pickup, self.t_employee, self.t_training, self.t_attendance,
            self.t_inspection, self.t_measurement, self.t_answer, self.t_incident,
            self.t_sample,
        ]  # fmt: skip

    def _history_tables(self) -> None:
        """The tables of what happened: pump-outs, pickups, people, inspections, incidents."""
        from fogkeeper.incidents.models import Incident
        from fogkeeper.inspections.models import ChecklistAnswer, Inspection, Measurement, Sample
        from fogkeeper.maintenance.models import Service, YellowGreasePickup
        from fogkeeper.registry.models import ApprovedException
        from fogkeeper.training.models import Attendance, Employee, Training

        T = _Table
        self.t_service = T(
            Service,
            [
                "device_id", "hauler_id", "manifest_number", "date", "full_pump_out",
                "gallons_removed", "fog_inches", "solids_inches", "final_chamber_floating_oil",
                "sludge_to_outlet_inches",
            ],
        )  # fmt: skip
        self.t_pickup = T(YellowGreasePickup, ["establishment_id", "hauler_id", "date", "gallons"])
        self.t_employee = T(
            Employee,
            [
                "id", "establishment_id", "code", "name", "hired_on", "left_on",
                "kitchen_duties", "contractor",
            ],
        )  # fmt: skip
        self.t_training = T(Training, ["id", "establishment_id", "code", "date"])
        self.t_attendance = T(Attendance, ["training_id", "employee_id", "signed"])
        self.t_inspection = T(Inspection, ["id", "establishment_id", "code", "date"])
        self.t_measurement = T(
            Measurement,
            [
                "inspection_id", "device_id", "fog_inches", "solids_inches",
                "final_chamber_floating_oil", "sludge_to_outlet_inches",
            ],
        )  # fmt: skip
        self.t_answer = T(ChecklistAnswer, ["inspection_id", "item", "device_id", "compliant"])
        self.t_incident = T(
            Incident,
            [
                "agency_id", "establishment_id", "code", "date", "kind", "attributed",
                "fog_caused", "gallons", "address", "normalised_address", "written_report_on",
                "clearance_inspection_on",
            ],
        )  # fmt: skip
        self.t_exception = T(
            ApprovedException, ["device_id", "field", "approved_on", "approved_by", "reference"]
        )
        self.t_sample = T(
            Sample,
            ["establishment_id", "device_id", "code", "date", "parameter", "value", "unit",
             "method"],
        )  # fmt: skip

    def _id(self, model) -> int:
        value = self.next_id[model]
        self.next_id[model] = value + 1
        return value

    def counts(self) -> dict[str, int]:
        def n(t: _Table) -> int:
            return t.count + len(t.rows)

        return {
            "establishments": n(self.t_fse),
            "devices": n(self.t_device),
            "services": n(self.t_service),
            "pickups": n(self.t_pickup),
            "employees": n(self.t_employee),
            "trainings": n(self.t_training),
            "attendance": n(self.t_attendance),
            "inspections": n(self.t_inspection),
            "measurements": n(self.t_measurement),
            "answers": n(self.t_answer),
            "incidents": n(self.t_incident),
            "samples": n(self.t_sample),
            "approved_exceptions": n(self.t_exception),
            "permits": n(self.t_permit),
            "parcels": n(self.t_parcel),
            "owners": n(self.t_owner),
            "operators": n(self.t_operator),
        }

    def flush(self) -> None:
        for t in self.tables:
            self.writer.flush(t)

    def finish(self) -> None:
        from django.core.management.color import no_style

        self.flush()
        conn = self.writer.connection
        with conn.cursor() as cursor:
            for sql in conn.ops.sequence_reset_sql(no_style(), list(self.models)):
                cursor.execute(sql)
        self._audit({"years": self.years, **self.counts()})

    def analyze(self) -> None:
        """Fresh planner statistics, as autovacuum would gather after a load this size."""
        from fogkeeper.statistics import analyze_tables

        analyze_tables(self.writer.connection)

    # -- one establishment

    def establishment(self, i: int) -> None:
        rng = self.rng
        rnd, ri, choice = rng.random, rng.randint, rng.choice
        A, S = self.A, self.S
        d = date.fromordinal
        agency_id = self.agency.pk
        sloppy = rnd() < 0.45

        def bad(p: float) -> bool:
            return sloppy and rnd() < p

        opened = S - ri(0, 15 * YEAR) if rnd() < 0.6 else ri(S, A - 30)
        closed = None
        if rnd() < 0.03 and max(opened + 180, S) < A - 5:
            closed = ri(max(opened + 180, S), A - 5)
        end = closed or A

        # where: a parcel of its own, or a tenant space in a plaza
        address = f"{ri(100, 39999)} {choice(STREETS)}"
        if self.plaza is not None and self.plaza[1] < 4 and rnd() < 0.5:
            parcel_id = self.plaza[0]
            self.plaza = (parcel_id, self.plaza[1] + 1)
            address += f", Ste {self.plaza[1]}"
        else:
            parcel_id = self._id(self.t_parcel.model)
            if self.owners and rnd() < 0.3:
                owner_id = choice(self.owners)
            else:
                owner_id = self._id(self.t_owner.model)
                self.owners.append(owner_id)
                if len(self.owners) > 500:
                    self.owners = self.owners[-250:]
                self.t_owner.rows.append(
                    (owner_id, agency_id, f"{choice(LAST)} Properties {owner_id}", address)
                )
            multi = rnd() < 0.2
            self.t_parcel.rows.append(
                (parcel_id, agency_id, f"{parcel_id:09d}", address, owner_id, multi)
            )
            self.plaza = (parcel_id, 1) if multi else None

        fid = self._id(self.t_fse.model)
        name = f"{choice(LAST)}'s {choice(FOOD)}"
        operator = f"{choice(LAST)} {choice(FIRST)} Foods LLC"
        op_since = opened
        previous = None
        if rnd() < 0.15 and opened + 200 < end:
            op_since = ri(max(opened + 100, S - 5 * YEAR), end - 30)
            previous = f"{choice(LAST)} Restaurants Inc"
        remodeled = ri(opened, end) if rnd() < 0.1 else None
        grinder = bad(0.04)
        law = self.ordinance
        exception = choice(("space", "slope")) if law.exceptions and rnd() < 0.05 else ""
        category = law.category(rnd())
        self.t_fse.rows.append(
            (
                fid, agency_id, f"FSE-{i + 1:06d}", name, address, self.normalise(address),
                parcel_id, category,
                rnd() > 0.015, d(opened), d(closed) if closed else None,
                d(remodeled) if remodeled else None, grinder,
                d(ri(opened, end)) if grinder and rnd() < 0.5 else None,
                rnd() < 0.02, exception, None,
            )
        )  # fmt: skip
        op_id = self._id(self.t_operator.model)
        self.t_operator.rows.append((op_id, agency_id, operator))
        if previous:
            prev_id = self._id(self.t_operator.model)
            self.t_operator.rows.append((prev_id, agency_id, previous))
            self.t_tenure.rows.append((fid, prev_id, d(opened), d(op_since)))
        self.t_tenure.rows.append((fid, op_id, d(op_since), None))
        self.t_lateral.rows.append((fid, choice(self.segments)))
        if law.changes and rnd() < 0.05:
            # as the registry records one: from the opening to the closing, told of by as_of
            when = min(max(A + ri(-400, 200), opened), closed or A + 200)
            notified = None if bad(0.5) else min(when - ri(40 if sloppy else 61, 120), A)
            kind = choice(("remodel", "expansion", "process"))
            self.t_change.rows.append((fid, d(when), kind, d(notified) if notified else None))

        devices = self._devices(fid, category, opened, end, bad)

        holders = (operator, previous, op_since)
        yellow = self._permits(fid, devices, opened, end, holders, sloppy, bad)

        self._services(devices, end, sloppy, bad)
        if yellow or rnd() < 0.05:
            every = yellow or 60
            when = max(S, opened) + ri(0, every)
            hauler = choice(self.oil_haulers)
            while when <= end:
                self.t_pickup.rows.append((fid, hauler, d(when), float(choice((35, 55, 110)))))
                when += int(every * (rng.uniform(0.7, 1.6) if bad(0.2) else rng.uniform(0.7, 1.0)))
        self._people(fid, opened, end, sloppy, bad)
        self._inspections(fid, devices, opened, end, sloppy, bad)
        if law.discharge_limits:
            self._samples(fid, devices, opened, end, sloppy)
        if rnd() < 0.07:
            for _ in range(1 + (rnd() < 0.15)):
                self._incident(fid, address, max(S, opened), end, sloppy)

    def _devices(self, fid: int, category: str, opened: int, end: int, bad) -> list[tuple]:
        """The establishment's grease control devices (and their approved exceptions):
        (id, kind, installed, frequency, depth, capacity) of each."""
        rng, law, d = self.rng, self.ordinance, date.fromordinal
        rnd, ri, choice = rng.random, rng.randint, rng.choice
        devices = []
        count = _weighted(rng, DEVICES_PER_FSE)
        if not law.needs_device(category):
            count = int(rnd() < 0.2)
        for k in range(1, count + 1):
            kind = law.kind(rnd())
            large = kind in law.large
            freq = _weighted(rng, law.frequencies[kind])
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
            dev_id = self._id(self.t_device.model)
            devices.append((dev_id, kind, installed, freq, depth, capacity))
            self.t_device.rows.append(
                (
                    dev_id, fid, f"{law.prefix[kind]}-{k}", kind, d(installed), capacity, depth,
                    compartments, manhole, freq if k > 1 or not large else None,
                )
            )  # fmt: skip
            if law.approves:
                design = {
                    "capacity_gallons": capacity,
                    "design_depth_inches": depth,
                    "compartments": compartments,
                    "manhole_diameter_inches": manhole,
                }
                self._exceptions(dev_id, kind, design, installed, end)
        return devices

    def _permits(self, fid, devices, opened, end, holders, sloppy, bad) -> int | None:
        """The permit issued to the operator of the day, with the first large device's
        frequency, and the one it superseded; returns the waste oil pickup frequency set."""
        rng, law, d = self.rng, self.ordinance, date.fromordinal
        rnd, ri, choice = rng.random, rng.randint, rng.choice
        A, agency_id = self.A, self.agency.pk
        operator, previous, op_since = holders
        permit_freq = next((f for _, kind, _, f, _, _ in devices if kind in law.large), None)
        yellow = choice((60, 90)) if law.yellow_grease and rnd() < 0.15 else None
        term = law.permit_term
        if term and rnd() < 0.92 and opened < end:
            late = bad(0.15)
            issued = max(opened, A - ri(0, term + (90 if late else -30)))
            if issued <= end:
                expires = issued + term - 1
                holder = previous if previous and op_since > issued else operator
                applied = None
                lead = law.renewal_lead
                if lead is not None and expires - lead - 60 < A and (not sloppy or rnd() < 0.5):
                    applied = expires - ri(-20 if sloppy else lead + 1, lead + 60)
                self.t_permit.rows.append(
                    (
                        agency_id, fid, f"P-{fid:07d}-2", holder, d(issued),
                        d(expires), d(applied) if applied and applied <= A else None, permit_freq,
                        yellow, "active", None,
                    )
                )  # fmt: skip
                if issued - term >= opened:
                    self.t_permit.rows.append(
                        (
                            agency_id, fid, f"P-{fid:07d}-1", holder,
                            d(issued - term), d(issued - 1), d(issued - ri(61, 120)),
                            permit_freq, yellow, "superseded", d(issued - 1),
                        )
                    )  # fmt: skip
        return yellow

    def _services(self, devices, end, sloppy, bad) -> None:
        rng = self.rng
        rnd, uniform, choice = rng.random, rng.uniform, rng.choice
        d = date.fromordinal
        rows = self.t_service.rows
        pumper = choice(self.pumpers)
        law = self.ordinance
        for dev_id, kind, installed, freq, depth, capacity in devices:
            large = kind in law.large
            when = max(installed, self.S) + int(freq * uniform(0.3, 1.0))
            keep_up = uniform(0.72, 0.95)
            while when <= end:
                self.manifest += 1
                hauler = choice(self.unlicensed) if bad(0.03) else pumper
                full = not (kind in law.fully_pumped and bad(0.04))
                if rnd() < 0.85:
                    share = uniform(0.10, 0.22)
                    if bad(0.08):
                        share = uniform(0.26, 0.45)
                    total = depth * share
                    fog = total * uniform(0.3, 0.6)
                    fog_in, solids_in = round(fog, 2), round(total - fog, 2)
                    oil = bad(0.03) if large else None
                    sludge = round(uniform(0.5, 2) if bad(0.03) else uniform(3, 20), 1)
                    sludge = sludge if large else None
                else:
                    fog_in = solids_in = oil = sludge = None
                rows.append(
                    (
                        dev_id, hauler, f"M{self.manifest:09d}", d(when), full,
                        round(capacity * uniform(0.8, 1.0), 0), fog_in, solids_in, oil, sludge,
                    )
                )  # fmt: skip
                late = bad(0.12)
                step = freq * (uniform(1.1, 1.8) if late else keep_up * uniform(0.95, 1.0))
                when += max(1, int(step))

    def _people(self, fid, opened, end, sloppy, bad) -> None:
        rng = self.rng
        rnd, ri, choice = rng.random, rng.randint, rng.choice
        d = date.fromordinal
        first_day = max(opened, self.S - 3 * YEAR)
        people = []
        for k in range(1, ri(6, 14) + 1):
            hired = ri(first_day, max(first_day, end - 14))
            left = hired + int(rng.expovariate(1 / 700)) + 30 if rnd() < 0.75 else None
            if left is not None and left > end:
                left = None if end == self.A else end
            emp_id = self._id(self.t_employee.model)
            people.append((emp_id, hired, left or 10**7))
            self.t_employee.rows.append(
                (
                    emp_id, fid, f"E-{k}", f"{choice(FIRST)} {choice(LAST)}", d(hired),
                    d(left) if left else None, rnd() > 0.1, rnd() < 0.05,
                )
            )  # fmt: skip
        sessions = []
        lo, hi = self.refresher
        when = max(opened, self.S) + ri(0, lo)
        while when <= end:
            sessions.append((when, [e for e, h, lft in people if h <= when < lft]))
            when += ri(lo, hi + 120 if bad(0.3) else hi)
        for emp_id, hired, left in people:
            if hired < self.S or bad(0.3) or rnd() < 0.1:
                continue
            when = hired + (ri(1, 60) if bad(0.5) else ri(0, self.new_hire_window))
            if when <= min(end, left - 1):
                sessions.append((when, [emp_id]))
        sessions.sort()
        t_rows, a_rows = self.t_training.rows, self.t_attendance.rows
        for k, (when, who) in enumerate(sessions, start=1):
            if not who:
                continue
            tid = self._id(self.t_training.model)
            t_rows.append((tid, fid, f"T-{k}", d(when)))
            for emp_id in who:
                a_rows.append((tid, emp_id, not bad(0.04)))

    def _inspections(self, fid, devices, opened, end, sloppy, bad) -> None:
        rng = self.rng
        rnd, ri = rng.random, rng.randint
        d = date.fromordinal
        first = max(opened + 30, self.S)
        if first >= end:
            return
        n = ri(2, 6)
        span = min(end - first, 5 * YEAR)
        step = max(30, span // n)
        when = end - ri(10, min(step, 400))
        dates = []
        while when >= first and len(dates) < n:
            dates.append(when)
            when -= int(step * rng.uniform(0.8, 1.2))
        items, gcd_items = self.other_items, self.gcd_items
        for k, when in enumerate(reversed(dates), start=1):
            iid = self._id(self.t_inspection.model)
            self.t_inspection.rows.append((iid, fid, f"I-{k}", d(when)))
            here = [dv for dv in devices if dv[2] <= when]
            for dev_id, kind, _, _, depth, _ in here:
                large = kind in self.ordinance.large
                if rnd() < 0.6:
                    total = depth * rng.uniform(0.05, 0.32 if sloppy else 0.22)
                    fog = total * rng.uniform(0.3, 0.6)
                    self.t_measurement.rows.append(
                        (
                            iid, dev_id, round(fog, 2), round(total - fog, 2),
                            bad(0.03) if large else None,
                            round(rng.uniform(3, 20), 1) if large else None,
                        )
                    )  # fmt: skip
            for item in rng.sample(items, min(len(items), ri(4, 8))):
                self.t_answer.rows.append((iid, item, None, not bad(0.12)))
            if here:
                dev_id = here[0][0]
                for item in rng.sample(gcd_items, min(len(gcd_items), ri(1, 2))):
                    self.t_answer.rows.append((iid, item, dev_id, not bad(0.12)))
            if self.access_item and (rnd() < 0.3 or bad(0.03)):
                self.t_answer.rows.append((iid, self.access_item, None, not bad(0.1)))

    def _exceptions(self, dev_id, kind, design, installed, end) -> None:
        """Half the devices outside the design limits have the agency's approval of the
        fields that fail, some weeks after they were installed (or the pack took effect)."""
        rng = self.extra_rng
        law = self.ordinance
        failed = law.failing(kind, design)
        if not failed or rng.random() >= 0.5:
            return
        approved = max(installed, law.pack.effective.toordinal()) + rng.randint(10, 120)
        if approved > end:
            return
        if not _pack_value(law.pack, "gcd.exceptions_allowed", date.fromordinal(approved)):
            return
        for name in failed:
            self.t_exception.rows.append(
                (dev_id, name, date.fromordinal(approved), self.approver,
                 f"EX-{date.fromordinal(approved).year}-{dev_id}")
            )  # fmt: skip

    def _samples(self, fid, devices, opened, end, sloppy) -> None:
        """A third of the establishments with a large device have its outlet sampled for each
        parameter the pack limits, once or twice; now and then a sample is over the limit,
        and then, mostly, a re-sample some weeks later is within it."""
        rng = self.extra_rng
        law = self.ordinance
        large = [dv for dv in devices if dv[1] in law.large]
        first = max(opened + 30, self.S)
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
                        (fid, dev_id, f"S-{k}" if day == when else f"S-{k}R", date.fromordinal(day),
                         parameter, round(v, 1), unit, method)
                    )  # fmt: skip

    def _incident(self, fid, address, first, end, sloppy) -> None:
        rng = self.rng
        d = date.fromordinal
        if first >= end:
            return
        when = rng.randint(first, end)
        self.incident_no += 1
        attributed = rng.random() < (0.6 if sloppy else 0.3)
        report = clearance = None
        if attributed and rng.random() < 0.8:
            report = when + rng.randint(1, 12)
        if attributed and rng.random() < 0.7:
            clearance = when + rng.randint(1, 40)
        self.t_incident.rows.append(
            (
                self.agency.pk, fid, f"SSO-{d(when).year}-{self.incident_no:05d}", d(when),
                rng.choice(("overflow", "overflow", "blockage", "spill")), attributed,
                attributed and rng.random() < 0.8, float(rng.randint(5, 900)), address,
                self.normalise(address), d(report) if report and report <= self.A else None,
                d(clearance) if clearance and clearance <= self.A else None,
            )
        )  # fmt: skip

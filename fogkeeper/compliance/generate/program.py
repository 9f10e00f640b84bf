"""One generated program: the agency, its sewer segments and haulers, then one establishment
at a time, each handed to the builder of each kind of record in turn. Every builder draws
from the same seeded generator, in this order, so the order is part of the program."""

from __future__ import annotations

import random

from .devices import Devices
from .establishments import Establishments
from .incidents import Incidents
from .inspections import Inspections
from .names import LAST
from .ordinance import YEAR, Ordinance
from .people import People
from .permits import Permits
from .places import Places
from .pumpouts import Pumpouts
from .tables import Table, Writer


class _Generator:
    def __init__(
        self, *, establishments, years, as_of, agency_code, pack, seed, agency_name, letterhead
    ):
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
            letterhead="FOG Program" if letterhead is None else letterhead,
        )
        agency.full_clean()
        agency.save()
        self.agency = agency
        self.ordinance = Ordinance(agency.get_pack(), as_of)
        self.places = Places(agency.get_pack(), seed)
        # the models whose ids are assigned here, after the largest one already in the table
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
        self.establishments = Establishments(self)
        self.devices = Devices(self)
        self.permits = Permits(self)
        self.pumpouts = Pumpouts(self)
        self.people = People(self)
        self.inspections = Inspections(self)
        self.incidents = Incidents(self)
        self.tables = self._tables()
        # Samples and approved exceptions draw from a generator of their own, so that a pack
        # with them gets the same establishments as one without.
        self.extra_rng = random.Random(f"{seed}:samples-and-exceptions")
        self.writer = Writer()

    def _small_tables(self, agency, establishments: int) -> None:
        """The sewer segments and the haulers, through the ORM (their ids are needed)."""
        from fogkeeper.registry.models import Hauler, SewerSegment

        rng = self.rng
        segments = [
            SewerSegment(
                agency=agency,
                code=f"S-{k:05d}",
                description=f"{rng.choice(self.places.streets)}, block {k}",
                prone_to_blockage=rng.random() < 0.05,
                path=self.places.reach(),
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
        self.next_id = {}
        for model in self.models:
            last = model.objects.order_by("-pk").values_list("pk", flat=True).first()
            self.next_id[model] = (last or 0) + 1

    def _tables(self) -> list[Table]:
        """The builders' tables, in the order they are written."""
        e, dv, pu, pe, ins = (
            self.establishments,
            self.devices,
            self.pumpouts,
            self.people,
            self.inspections,
        )
        return [
            e.t_owner,
            e.t_parcel,
            e.t_operator,
            e.t_fse,
            e.t_tenure,
            e.t_change,
            e.t_lateral,
            dv.t_device,
            dv.t_exception,
            self.permits.t_permit,
            pu.t_service,
            pu.t_pickup,
            pe.t_employee,
            pe.t_training,
            pe.t_attendance,
            ins.t_inspection,
            ins.t_measurement,
            ins.t_answer,
            self.incidents.t_incident,
            ins.t_sample,
        ]

    def new_id(self, model) -> int:
        value = self.next_id[model]
        self.next_id[model] = value + 1
        return value

    def counts(self) -> dict[str, int]:
        e, dv, pu, pe, ins = (
            self.establishments,
            self.devices,
            self.pumpouts,
            self.people,
            self.inspections,
        )
        return {
            "establishments": e.t_fse.size(),
            "devices": dv.t_device.size(),
            "services": pu.t_service.size(),
            "pickups": pu.t_pickup.size(),
            "employees": pe.t_employee.size(),
            "trainings": pe.t_training.size(),
            "attendance": pe.t_attendance.size(),
            "inspections": ins.t_inspection.size(),
            "measurements": ins.t_measurement.size(),
            "answers": ins.t_answer.size(),
            "incidents": self.incidents.t_incident.size(),
            "samples": ins.t_sample.size(),
            "approved_exceptions": dv.t_exception.size(),
            "permits": self.permits.t_permit.size(),
            "parcels": e.t_parcel.size(),
            "owners": e.t_owner.size(),
            "operators": e.t_operator.size(),
        }

    def establishment(self, i: int) -> None:
        """The `i`th establishment (from 0) and its records. About half are well run; the
        others are `sloppy`, and `bad(p)` gives each of their records a defect with chance p."""
        rnd = self.rng.random
        sloppy = rnd() < 0.45

        def bad(p: float) -> bool:
            return sloppy and rnd() < p

        fse = self.establishments.add(i, sloppy, bad)
        fid, opened, end = fse.id, fse.opened, fse.end
        devices = self.devices.add(fid, fse.category, opened, end, bad)
        yellow = self.permits.add(fid, devices, opened, end, fse.holders, sloppy, bad)
        self.pumpouts.services(devices, end, sloppy, bad)
        self.pumpouts.pickups(fid, opened, end, yellow, bad)
        self.people.add(fid, opened, end, bad)
        self.inspections.add(fid, devices, opened, end, sloppy, bad)
        if self.ordinance.discharge_limits:
            self.inspections.samples(fid, devices, opened, end, sloppy)
        if rnd() < 0.07:
            for _ in range(1 + (rnd() < 0.15)):
                self.incidents.add(fid, fse.address, max(self.S, opened), end, sloppy)

    def flush(self) -> None:
        for t in self.tables:
            self.writer.flush(t)

    def finish(self) -> None:
        from django.core.management.color import no_style

        from fogkeeper.audit.services import audit_record

        self.flush()
        conn = self.writer.connection
        with conn.cursor() as cursor:
            for sql in conn.ops.sequence_reset_sql(no_style(), list(self.models)):
                cursor.execute(sql)
        audit_record(
            action="generate.load",
            obj=self.agency,
            agency=self.agency,
            after={"years": self.years, **self.counts()},
            reason="python manage.py generate",
        )

    def analyze(self) -> None:
        """Fresh planner statistics, as autovacuum would gather after a load this size."""
        from fogkeeper.statistics import analyze_tables

        analyze_tables(self.writer.connection)

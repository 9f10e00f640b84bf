"""The establishments themselves: their parcels (some with several tenants) and owners, their
operators (some changed), the sewer segments their laterals drain to and the changes of
operation the registry records."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, NamedTuple

from .names import FIRST, FOOD, LAST
from .ordinance import YEAR
from .tables import Table

if TYPE_CHECKING:
    from .program import _Generator


class Establishment(NamedTuple):
    """What the other builders need of an establishment; days are ordinals."""

    id: int
    category: str
    opened: int
    end: int  # the day it closed, else as_of
    address: str
    holders: tuple  # (operator, previous operator or None, the day the operator took over)


class Establishments:
    def __init__(self, g: _Generator):
        from fogkeeper.registry.models import (
            FoodServiceEstablishment,
            Lateral,
            OperationChange,
            Operator,
            OperatorTenure,
            Parcel,
            PropertyOwner,
        )

        self.g = g
        self.t_owner = Table(PropertyOwner, ["id", "agency_id", "name", "mailing_address"])
        self.t_parcel = Table(
            Parcel, ["id", "agency_id", "apn", "address", "owner_id", "multi_tenant"]
        )
        self.t_operator = Table(Operator, ["id", "agency_id", "name"])
        self.t_fse = Table(
            FoodServiceEstablishment,
            [
                "id",
                "agency_id",
                "code",
                "name",
                "address",
                "normalised_address",
                "parcel_id",
                "category",
                "on_public_sewer",
                "opened_on",
                "closed_on",
                "remodeled_on",
                "food_grinder",
                "food_grinder_installed_on",
                "variance_granted",
                "interceptor_exception",
                "interceptor_plans_submitted_on",
                "latitude",
                "longitude",
            ],
        )
        self.t_tenure = Table(OperatorTenure, ["establishment_id", "operator_id", "since", "until"])
        self.t_change = Table(OperationChange, ["establishment_id", "date", "kind", "notified_on"])
        self.t_lateral = Table(Lateral, ["establishment_id", "segment_id"])
        self.plaza: tuple[int, int] | None = None  # (parcel id, tenants so far)
        self.owners: list[int] = []

    def add(self, i: int, sloppy: bool, bad) -> Establishment:
        """The `i`th establishment (from 0), `sloppy` or not, `bad(p)` true with chance p
        for a sloppy one."""
        g = self.g
        rng = g.rng
        rnd, ri, choice = rng.random, rng.randint, rng.choice
        A, S = g.A, g.S
        d = date.fromordinal
        agency_id = g.agency.pk

        opened = S - ri(0, 15 * YEAR) if rnd() < 0.6 else ri(S, A - 30)
        closed = None
        if rnd() < 0.03 and max(opened + 180, S) < A - 5:
            closed = ri(max(opened + 180, S), A - 5)
        end = closed or A
        parcel_id, address = self._parcel(f"{ri(100, 39999)} {choice(g.places.streets)}")

        fid = g.new_id(self.t_fse.model)
        name = f"{choice(LAST)}'s {choice(FOOD)}"
        operator = f"{choice(LAST)} {choice(FIRST)} Foods LLC"
        op_since = opened
        previous = None
        if rnd() < 0.15 and opened + 200 < end:
            op_since = ri(max(opened + 100, S - 5 * YEAR), end - 30)
            previous = f"{choice(LAST)} Restaurants Inc"
        remodeled = ri(opened, end) if rnd() < 0.1 else None
        grinder = bad(0.04)
        law = g.ordinance
        exception = choice(("space", "slope")) if law.exceptions and rnd() < 0.05 else ""
        category = law.category(rnd())
        self.t_fse.rows.append(
            (
                fid,
                agency_id,
                f"FSE-{i + 1:06d}",
                name,
                address,
                g.normalise(address),
                parcel_id,
                category,
                rnd() > 0.015,
                d(opened),
                d(closed) if closed else None,
                d(remodeled) if remodeled else None,
                grinder,
                d(ri(opened, end)) if grinder and rnd() < 0.5 else None,
                rnd() < 0.02,
                exception,
                None,
                *g.places.point(),
            )
        )
        self._operators(fid, operator, previous, opened, op_since)
        self.t_lateral.rows.append((fid, choice(g.segments)))
        if law.changes and rnd() < 0.05:
            self._change(fid, opened, closed, sloppy, bad)
        return Establishment(fid, category, opened, end, address, (operator, previous, op_since))

    def _parcel(self, address: str) -> tuple[int, str]:
        """Where: a parcel of its own, or a tenant space in a plaza; its id and the address."""
        g = self.g
        rng = g.rng
        rnd, choice = rng.random, rng.choice
        agency_id = g.agency.pk
        if self.plaza is not None and self.plaza[1] < 4 and rnd() < 0.5:
            parcel_id = self.plaza[0]
            self.plaza = (parcel_id, self.plaza[1] + 1)
            return parcel_id, address + f", Ste {self.plaza[1]}"
        parcel_id = g.new_id(self.t_parcel.model)
        if self.owners and rnd() < 0.3:
            owner_id = choice(self.owners)
        else:
            owner_id = g.new_id(self.t_owner.model)
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
        return parcel_id, address

    def _operators(self, fid, operator, previous, opened, op_since) -> None:
        g, d = self.g, date.fromordinal
        op_id = g.new_id(self.t_operator.model)
        self.t_operator.rows.append((op_id, g.agency.pk, operator))
        if previous:
            prev_id = g.new_id(self.t_operator.model)
            self.t_operator.rows.append((prev_id, g.agency.pk, previous))
            self.t_tenure.rows.append((fid, prev_id, d(opened), d(op_since)))
        self.t_tenure.rows.append((fid, op_id, d(op_since), None))

    def _change(self, fid, opened, closed, sloppy, bad) -> None:
        """A change of operation as the registry records one: from the opening to the
        closing, told of by as_of."""
        rng, A, d = self.g.rng, self.g.A, date.fromordinal
        ri = rng.randint
        when = min(max(A + ri(-400, 200), opened), closed or A + 200)
        notified = None if bad(0.5) else min(when - ri(40 if sloppy else 61, 120), A)
        kind = rng.choice(("remodel", "expansion", "process"))
        self.t_change.rows.append((fid, d(when), kind, d(notified) if notified else None))

"""A world for the API tests: San Clemente with two establishments, each served by its own
hauler, and the Town with one; a person of each role at San Clemente and a manager at the
Town. Every test runs on TODAY (policy.establishments and submissions read the date)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import pytest
import time_machine
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.incidents.models import Incident
from fogkeeper.registry.models import Parcel, PropertyOwner, ServiceContract
from fogkeeper.web.models import Membership
from tests.records import (
    d,
    make_device,
    make_employee,
    make_establishment,
    make_hauler,
    make_incident,
    make_inspection,
    make_permit,
    make_service,
    make_training,
)
from tests.web.people import two_agencies

TODAY = "2026-03-02"


@dataclass
class World:
    sc: object
    town: object
    pier: object  # FSE-1 at San Clemente: Coastal's customer, on Del Mar Holdings' parcel
    grill: object  # FSE-2 at San Clemente: Rival's customer
    diner: object  # FSE-9 at the Town
    coastal: object
    rival: object

    def device(self, fse):
        return fse.devices.get()


def _build() -> World:
    sc, town = two_agencies()
    pier = make_establishment(sc, code="FSE-1", name="Pier Taqueria", operator="Pier Foods LLC")
    grill = make_establishment(
        sc, code="FSE-2", name="Harbor Grill", operator="Harbor Grill Inc", address="5 Harbor"
    )
    diner = make_establishment(town, code="FSE-9", name="Desert Diner", operator="Desert LLC")
    owner = PropertyOwner.objects.create(agency=sc, name="Del Mar Holdings")
    pier.parcel = Parcel.objects.create(agency=sc, apn="692-01", address="1 Main", owner=owner)
    pier.save()
    coastal = make_hauler(sc, "H-1", name="Coastal Pumping")
    rival = make_hauler(sc, "H-2", name="Rival Vac")
    desert_vac = make_hauler(town, "H-9", name="Desert Vac")
    ServiceContract.objects.create(hauler=coastal, establishment=pier, since=d("2025-07-01"))
    ServiceContract.objects.create(hauler=rival, establishment=grill, since=d("2020-01-01"))
    ServiceContract.objects.create(hauler=desert_vac, establishment=diner, since=d("2020-01-01"))
    for fse, number in ((pier, "SC-1"), (grill, "SC-2"), (diner, "T-1")):
        make_permit(fse, number, service_frequency_days=90)
        make_device(fse, "GI-1", capacity_gallons=Decimal("1000"), installed_on="2010-01-01")
    make_service(pier.devices.get(), "R-1", "2025-06-01", hauler=rival)  # before Coastal
    make_service(pier.devices.get(), "C-1", "2025-10-01", hauler=coastal, fog_inches=Decimal("3"))
    make_service(grill.devices.get(), "R-2", "2026-01-15", hauler=rival)
    make_service(diner.devices.get(), "D-1", "2026-01-10", hauler=desert_vac)
    for fse in (pier, grill, diner):
        cook = make_employee(fse, code=f"{fse.code}-E1", hired_on="2025-01-01")
        make_training(fse, f"{fse.code}-T1", "2025-02-01", [cook])
        make_inspection(
            fse, f"{fse.code}-I1", "2025-09-01", answers=[("bmp.food_waste_disposal", True)]
        )
        make_incident(fse, f"{fse.code}-O1", "2025-11-01")
    Incident.objects.create(agency=sc, code="SPILL-1", date=d("2025-12-01"))  # matched no FSE
    sweep_agency(sc, as_of=d(TODAY))
    sweep_agency(town, as_of=d(TODAY))
    return World(sc, town, pier, grill, diner, coastal, rival)


@pytest.fixture
def today():
    with time_machine.travel(f"{TODAY} 10:00 -08:00", tick=False):
        yield d(TODAY)


@pytest.fixture
def world(db, today) -> World:
    return _build()


def member(username: str, agency, role: str, **links) -> User:
    # No password (hashing one costs a third of a second): the API takes tokens.
    user = User.objects.filter(username=username).first() or User.objects.create_user(username)
    Membership.objects.create(user=user, agency=agency, role=role, **links)
    return user


@pytest.fixture
def people(world):
    """The people of the world, by role at San Clemente ('town' manages the Town)."""
    sc = world.sc
    return {
        "manager": member("mona", sc, "manager"),
        "inspector": member("ines", sc, "inspector"),
        "clerk": member("carl", sc, "clerk"),
        "auditor": member("audrey", sc, "auditor"),
        "operator": member("olive", sc, "operator", operator=world.pier.current_tenure().operator),
        "hauler": member("hank", sc, "hauler", hauler=world.coastal),
        "owner": member("oscar", sc, "owner", owner=world.pier.parcel.owner),
        "town": member("tess", world.town, "manager"),
    }


def api(user=None, agency: str | None = None) -> APIClient:
    """A client sending `user`'s token (none: anonymous), acting for `agency` when given."""
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    if agency is not None:
        client.defaults["HTTP_X_FOGKEEPER_AGENCY"] = agency
    return client


def codes(response, field: str = "establishment") -> list[str]:
    assert response.status_code == 200, response.content
    return sorted(row[field] for row in response.json()["results"])

"""A world for the API tests: San Clemente with two establishments, each served by its own
hauler, and the Town with one; a person of each role at San Clemente and a manager at the
Town. Every test runs on TODAY (policy.establishments and submissions read the date).

The world and its people are built once for each module whose tests ask for the world, on
TODAY, in a transaction rolled back when the module ends (tests/databases.py): each test runs
in a savepoint of it, so what a test writes no other sees, and gets instances of its own,
read again by code and username. A module elsewhere that imports these fixtures (tests/races:
transactional) builds them for each test instead."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import pytest
import time_machine
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from fogkeeper import reevaluation
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.incidents.models import Incident
from fogkeeper.registry.models import (
    Agency,
    FoodServiceEstablishment,
    Hauler,
    Parcel,
    PropertyOwner,
    ServiceContract,
)
from fogkeeper.web.models import Membership
from tests import databases
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
NOW = f"{TODAY} 10:00 -08:00"


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


def _build() -> None:
    """The world's records, asking for no re-evaluation: the sweeps evaluate all of them."""
    with reevaluation.held():
        sc, town = _records()
    sweep_agency(sc, as_of=d(TODAY))
    sweep_agency(town, as_of=d(TODAY))


def _records() -> tuple[Agency, Agency]:
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
    return sc, town


def _read() -> World:
    """The world's records, read again by code: instances of this test's own."""
    sc, town = Agency.objects.get(code="san-clemente"), Agency.objects.get(code="town-10-02")
    fse, hauler = FoodServiceEstablishment.objects.get, Hauler.objects.get
    return World(
        sc,
        town,
        pier=fse(agency=sc, code="FSE-1"),
        grill=fse(agency=sc, code="FSE-2"),
        diner=fse(agency=town, code="FSE-9"),
        coastal=hauler(agency=sc, code="H-1"),
        rival=hauler(agency=sc, code="H-2"),
    )


@pytest.fixture(scope="module", autouse=True)
def _module_world(request, django_db_setup, django_db_blocker):
    """The world and its people, built once (on TODAY) for a module whose tests ask for the
    world, and rolled back when the module ends; each test runs in a savepoint of its
    transaction. True if built."""
    if not databases.module_asks_for(request, "world"):
        yield False
        return
    with databases.rolled_back(django_db_blocker, as_committed=True):
        with time_machine.travel(NOW, tick=False):
            _build()
            _make_people(_read())
            databases.check_constraints()
        yield True


@pytest.fixture
def today():
    with time_machine.travel(NOW, tick=False):
        yield d(TODAY)


@pytest.fixture
def world(request, db, today) -> World:
    """The module's world, read again for this test; built for this test where the module
    builds none (one that imports this fixture from outside tests/api)."""
    if not databases.built_for_module(request):
        _build()
    return _read()


def member(username: str, agency, role: str, **links) -> User:
    # No password (hashing one costs a third of a second): the API takes tokens.
    user = User.objects.filter(username=username).first() or User.objects.create_user(username)
    Membership.objects.create(user=user, agency=agency, role=role, **links)
    return user


USERNAMES = {
    "manager": "mona",
    "inspector": "ines",
    "clerk": "carl",
    "auditor": "audrey",
    "operator": "olive",
    "hauler": "hank",
    "owner": "oscar",
    "town": "tess",
}


def _make_people(world: World) -> None:
    sc = world.sc
    for role in ("manager", "inspector", "clerk", "auditor"):
        member(USERNAMES[role], sc, role)
    member("olive", sc, "operator", operator=world.pier.current_tenure().operator)
    member("hank", sc, "hauler", hauler=world.coastal)
    member("oscar", sc, "owner", owner=world.pier.parcel.owner)
    member("tess", world.town, "manager")


@pytest.fixture
def people(request, world) -> dict[str, User]:
    """The people of the world, by role at San Clemente ('town' manages the Town): made with
    the module's world (else for this test), read again for this test."""
    if not databases.built_for_module(request):
        _make_people(world)
    users = User.objects.in_bulk(USERNAMES.values(), field_name="username")
    return {role: users[name] for role, name in USERNAMES.items()}


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

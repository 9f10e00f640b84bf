"""A hauler's world for the portal tests, on 2025-06-30 (the clock travels there).

In San Clemente, hank works for Coastal Pumping, whose customer is Pier Taqueria (FSE-0042:
trap GT-2 overdue for a pump-out, interceptor GI-1); Harbor Grill (FSE-7) is Rogue Vac's
customer, not Coastal's. The Town has an establishment under the same code FSE-0042.

A module of tests/portal that knows `world` as this one has it built once (conftest.py),
each test reading its own instances again by code."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.contrib.auth.models import User

from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.registry.models import (
    Agency,
    FoodServiceEstablishment,
    GreaseControlDevice,
    Hauler,
    ServiceContract,
)
from fogkeeper.web.models import Membership
from tests import databases
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import d, make_device, make_establishment
from tests.web.people import make_user, two_agencies

NOON = datetime(2025, 6, 30, 12, 0, tzinfo=ZoneInfo("America/Los_Angeles"))
HOME = "/portal/hauler/"
PIER = "/portal/hauler/customers/FSE-0042/"
SUBMIT = "/portal/hauler/customers/FSE-0042/pump-out/"
UPLOAD = "/portal/hauler/upload/"
SUBMISSIONS = "/portal/hauler/submissions/"


@pytest.fixture
def clock():
    with time_machine.travel(NOON, tick=False):
        yield AS_OF


def build() -> None:
    sc, town = two_agencies()
    pier = make_pier_taqueria(sc)
    grill = make_establishment(sc, code="FSE-7", name="Harbor Grill", operator="Harbor Grill Inc")
    make_device(grill, "GI-1", installed_on="2010-01-01")
    coastal = Hauler.objects.get(code="FSE-0042-H1")
    rogue = Hauler.objects.get(code="FSE-0042-H2")
    ServiceContract.objects.create(hauler=coastal, establishment=pier, since=d("2011-01-01"))
    ServiceContract.objects.create(hauler=rogue, establishment=grill, since=d("2020-01-01"))
    town_fse = make_establishment(town, code="FSE-0042", name="Desert Taqueria")
    make_device(town_fse, "GI-1")
    sweep_agency(sc, as_of=AS_OF)
    hauler_user("hank", coastal)


def read() -> SimpleNamespace:
    """The world's records, read again by code: instances of this test's own."""
    sc, town = Agency.objects.get(code="san-clemente"), Agency.objects.get(code="town-10-02")
    fse, hauler = FoodServiceEstablishment.objects.get, Hauler.objects.get
    pier = fse(agency=sc, code="FSE-0042")
    return SimpleNamespace(
        sc=sc,
        town=town,
        pier=pier,
        grill=fse(agency=sc, code="FSE-7"),
        town_fse=fse(agency=town, code="FSE-0042"),
        coastal=hauler(agency=sc, code="FSE-0042-H1"),
        rogue=hauler(agency=sc, code="FSE-0042-H2"),
        hank=User.objects.get(username="hank"),
        trap=GreaseControlDevice.objects.get(establishment=pier, code="GT-2"),
    )


@pytest.fixture
def world(request, clock):
    """The module's world, read again for this test; built for this test where the module
    builds none (one that imports this fixture from outside tests/portal)."""
    if not databases.built_for_module(request):
        build()
    return read()


def hauler_user(username: str, hauler: Hauler):
    user = make_user(username)
    Membership.objects.create(user=user, agency=hauler.agency, role="hauler", hauler=hauler)
    return user


def staff_user(username: str, agency, role: str = "inspector"):
    return make_user(username, agency, role=role)


def trap_overdue(fse) -> bool:
    return Finding.objects.filter(
        establishment=fse, rule="gcd.service_overdue", subject="GT-2", open=True
    ).exists()


def pump_out(device, **kw) -> dict:
    data = {
        "device": device.pk,
        "manifest_number": "CP-900",
        "date": "2025-06-20",
        "full_pump_out": "on",
        "gallons_removed": "40",
        "fog_inches": "1.5",
    }
    return {**data, **kw}

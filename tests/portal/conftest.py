"""The portals' people and places (ACCESS.md). On 2025-06-30 in San Clemente, olive acts for
Harbor Eats Inc, the current operator of Pier Taqueria (FSE-0042); Harbor Grill (FSE-2) is
another operator's; Pier Foods LLC, Pier Taqueria's former operator, is oscar's business;
the Town has an establishment of its own (T-1). The world's clock shows that day.

The world is built once for each module whose tests ask for it, on that day, in a transaction
rolled back when the module ends (tests/databases.py): each test runs in a savepoint of it,
so what a test writes no other sees, and gets instances of its own, read again by code; so
is the hauler's world (haulers.py) for the modules that know it as `world`. A
module elsewhere that imports these fixtures (tests/races: transactional) builds the world
for each test."""

from __future__ import annotations

import types

import pytest
import time_machine
from django.contrib.auth.models import User

from fogkeeper import reevaluation
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.services import action_take, case_open
from fogkeeper.registry.models import (
    Agency,
    FoodServiceEstablishment,
    Operator,
    Parcel,
    PropertyOwner,
)
from fogkeeper.web.models import Membership
from tests import databases
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.portal import haulers
from tests.records import d, make_establishment
from tests.web.people import PASSWORD, two_agencies

PIER = "/portal/operator/FSE-0042/"
NOW = "2025-06-30 12:00 -07:00"


def member(username: str, agency, role: str, **links) -> User:
    user = User.objects.create_user(username, password=PASSWORD)
    Membership.objects.create(user=user, agency=agency, role=role, **links)
    return user


def _build() -> None:
    """The world's records, asking for no re-evaluation: the sweeps evaluate all of them."""
    with reevaluation.held():
        sc, town = two_agencies()
        make_pier_taqueria(sc)
        make_establishment(sc, code="FSE-2", name="Harbor Grill", operator="Harbor Grill Inc")
        make_establishment(town, code="T-1", name="Desert Diner", operator="Mesa Foods")
    sweep_agency(sc, as_of=AS_OF)
    sweep_agency(town, as_of=AS_OF)


def _read() -> types.SimpleNamespace:
    """The world's records, read again by code: instances of this test's own."""
    sc, town = Agency.objects.get(code="san-clemente"), Agency.objects.get(code="town-10-02")
    fse = FoodServiceEstablishment.objects.get
    return types.SimpleNamespace(
        sc=sc,
        town=town,
        pier=fse(agency=sc, code="FSE-0042"),
        grill=fse(agency=sc, code="FSE-2"),
        town_fse=fse(agency=town, code="T-1"),
    )


@pytest.fixture(scope="module", autouse=True)
def _module_world(request, django_db_setup, django_db_blocker):
    """The world the module knows as `world` (the one above, or the hauler's), built once at
    its time for a module whose tests ask for it, and rolled back when the module ends; each
    test runs in a savepoint of its transaction. True if built."""
    builders = {world: (_build, NOW), haulers.world: (haulers.build, haulers.NOON)}
    build, now = builders.get(getattr(request.module, "world", world), (None, None))
    if build is None or not databases.module_asks_for(request, "world"):
        yield False
        return
    with databases.rolled_back(django_db_blocker, as_committed=True):
        with time_machine.travel(now, tick=False):
            build()
            databases.check_constraints()
        yield True


@pytest.fixture
def today():
    with time_machine.travel(NOW, tick=False):
        yield AS_OF


@pytest.fixture
def world(request, db, today):
    """The module's world, read again for this test; built for this test where the module
    builds none (one that imports this fixture from outside tests/portal)."""
    if not databases.built_for_module(request):
        _build()
    return _read()


@pytest.fixture
def olive(world):
    operator = Operator.objects.get(agency=world.sc, name="Harbor Eats Inc")
    return member("olive", world.sc, "operator", operator=operator)


@pytest.fixture
def as_olive(client, olive):
    client.force_login(olive)
    return client


@pytest.fixture
def owner(world):
    """Del Mar Holdings owns the parcel Pier Taqueria is on."""
    holder = PropertyOwner.objects.create(agency=world.sc, name="Del Mar Holdings")
    parcel = Parcel.objects.create(agency=world.sc, apn="692-01", address="101 Avenida Del Mar")
    parcel.owner = holder
    parcel.save()
    world.pier.parcel = parcel
    world.pier.save()
    return member("dora", world.sc, "owner", owner=holder)


@pytest.fixture
def letters(monkeypatch):
    """Letters are rendered as a fixed PDF (WeasyPrint is tested with the letters); the rest
    of the letters module (the layout other documents take) stays as it is."""
    from fogkeeper.enforcement import letters as module

    pdf = b"%PDF-1.7 notice of noncompliance"
    monkeypatch.setattr(module, "render_action_letter", lambda *a, **kw: pdf)


def notice(fse, code: str = "NNC-1"):
    """A notice of noncompliance sent to `fse`, with its letter (use with `letters`)."""
    case = case_open(establishment=fse, code=f"EC-{code}", opened_on=d("2025-06-01"))
    return action_take(
        case=case,
        type="notice_of_noncompliance",
        code=code,
        fields={"delivered_on": d("2025-06-02"), "correct_by": d("2025-07-02")},
    )

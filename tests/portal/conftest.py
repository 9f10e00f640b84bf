"""The portals' people and places (ACCESS.md). On 2025-06-30 in San Clemente, olive acts for
Harbor Eats Inc, the current operator of Pier Taqueria (FSE-0042); Harbor Grill (FSE-2) is
another operator's; Pier Foods LLC, Pier Taqueria's former operator, is oscar's business;
the Town has an establishment of its own (T-1). The world's clock shows that day."""

from __future__ import annotations

import types

import pytest
import time_machine
from django.contrib.auth.models import User

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.services import action_take, case_open
from fogkeeper.registry.models import Operator, Parcel, PropertyOwner
from fogkeeper.web.models import Membership
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import d, make_establishment
from tests.web.people import PASSWORD, two_agencies

PIER = "/portal/operator/FSE-0042/"


def member(username: str, agency, role: str, **links) -> User:
    user = User.objects.create_user(username, password=PASSWORD)
    Membership.objects.create(user=user, agency=agency, role=role, **links)
    return user


@pytest.fixture
def today():
    with time_machine.travel("2025-06-30 12:00 -07:00", tick=False):
        yield AS_OF


@pytest.fixture
def world(db, today):
    sc, town = two_agencies()
    pier = make_pier_taqueria(sc)
    grill = make_establishment(sc, code="FSE-2", name="Harbor Grill", operator="Harbor Grill Inc")
    town_fse = make_establishment(town, code="T-1", name="Desert Diner", operator="Mesa Foods")
    sweep_agency(sc, as_of=AS_OF)
    sweep_agency(town, as_of=AS_OF)
    return types.SimpleNamespace(sc=sc, town=town, pier=pier, grill=grill, town_fse=town_fse)


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

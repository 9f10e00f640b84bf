"""The policy module: what each role reaches and may write (ACCESS.md)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from time_machine import travel

from fogkeeper.registry.models import (
    Operator,
    OperatorTenure,
    Parcel,
    PropertyOwner,
    ServiceContract,
)
from fogkeeper.web.common import policy
from fogkeeper.web.models import Membership
from tests.records import d, make_establishment, make_hauler
from tests.web.people import PASSWORD, two_agencies

pytestmark = pytest.mark.django_db


def _world():
    sc, town = two_agencies()
    mine = make_establishment(sc, code="FSE-1", operator="Pier Foods LLC")
    other = make_establishment(sc, code="FSE-2", operator="Harbor Grill Inc")
    across = make_establishment(town, code="FSE-1", operator="Pier Foods LLC")
    return sc, town, mine, other, across


def _member(name, agency, role, **links):
    user = User.objects.create_user(name, password=PASSWORD)
    Membership.objects.create(user=user, agency=agency, role=role, **links)
    return user


def _codes(user, agency):
    return sorted(policy.establishments(user, agency).values_list("code", flat=True))


def test_it_gives_staff_every_establishment_of_their_agency_and_none_of_another():
    sc, town, *_ = _world()
    auditor = _member("ann", sc, "auditor")
    assert _codes(auditor, sc) == ["FSE-1", "FSE-2"]
    assert _codes(auditor, town) == []


def test_it_gives_an_operator_only_the_establishments_it_operates_now():
    sc, town, mine, other, _ = _world()
    op = mine.current_tenure().operator
    user = _member("olive", sc, "operator", operator=op)
    assert _codes(user, sc) == ["FSE-1"]
    assert _codes(user, town) == []
    with travel("2030-01-01"):
        tenure = mine.current_tenure()
        tenure.until = d("2029-12-31")
        tenure.save()
        OperatorTenure.objects.create(
            establishment=mine,
            operator=Operator.objects.create(agency=sc, name="New Owner LLC"),
            since=d("2030-01-01"),
        )
        assert _codes(user, sc) == []


def test_it_gives_a_hauler_only_its_current_customers():
    sc, _, mine, other, _ = _world()
    hauler = make_hauler(sc, code="H-1")
    ServiceContract.objects.create(hauler=hauler, establishment=mine, since=d("2020-01-01"))
    ServiceContract.objects.create(
        hauler=hauler, establishment=other, since=d("2020-01-01"), until=d("2021-01-01")
    )
    user = _member("hank", sc, "hauler", hauler=hauler)
    assert _codes(user, sc) == ["FSE-1"]
    assert policy.may_write(user, sc, "service")
    assert not policy.may_write(user, sc, "inspection")
    assert policy.may_read(user, sc, "own_services")
    assert not policy.may_read(user, sc, "findings")


def test_it_gives_an_owner_the_establishments_on_its_parcels_read_only():
    sc, _, mine, _, _ = _world()
    owner = PropertyOwner.objects.create(agency=sc, name="Del Mar Holdings")
    mine.parcel = Parcel.objects.create(agency=sc, apn="692-01", address="1 Main", owner=owner)
    mine.save()
    user = _member("oscar", sc, "owner", owner=owner)
    assert _codes(user, sc) == ["FSE-1"]
    assert policy.may_read(user, sc, "findings")
    assert not any(policy.may_write(user, sc, k) for k in policy.WRITES["manager"])


def test_it_refuses_a_membership_whose_record_belongs_to_another_agency():
    sc, town, *_ = _world()
    user = User.objects.create_user("eve", password=PASSWORD)
    foreign = make_hauler(town, code="H-9")
    membership = Membership(user=user, agency=sc, role="hauler", hauler=foreign)
    with pytest.raises(ValidationError, match="not a record of City of San Clemente"):
        membership.full_clean()


def test_it_refuses_a_staff_membership_that_names_a_hauler():
    sc, *_ = _world()
    user = User.objects.create_user("eve", password=PASSWORD)
    with pytest.raises(IntegrityError):
        Membership.objects.create(user=user, agency=sc, role="inspector", hauler=make_hauler(sc))


def test_it_ends_access_when_the_membership_is_removed():
    sc, *_ = _world()
    user = _member("ann", sc, "inspector")
    assert policy.may_write(user, sc, "inspection")
    Membership.objects.filter(user=user).delete()
    assert not policy.may_write(user, sc, "inspection")
    assert _codes(user, sc) == []


def test_it_lets_a_clerk_decide_but_not_inspect():
    sc, *_ = _world()
    clerk = _member("carl", sc, "clerk")
    assert policy.may_write(clerk, sc, "decision")
    assert not policy.may_write(clerk, sc, "inspection")
    assert not policy.may_write(clerk, sc, "permit")


def test_it_keeps_outside_roles_off_the_staff_pages(client):
    sc, _, mine, *_ = _world()
    _member("olive", sc, "operator", operator=mine.current_tenure().operator)
    client.login(username="olive", password=PASSWORD)
    assert client.get("/establishments/").status_code == 404
    assert client.get("/establishments/FSE-1/").status_code == 404


def test_it_sends_an_operator_from_the_dashboard_to_its_portal(client):
    sc, _, mine, *_ = _world()
    _member("olive", sc, "operator", operator=mine.current_tenure().operator)
    client.login(username="olive", password=PASSWORD)
    response = client.get("/", follow=True)
    assert response.redirect_chain[-1][0] == "/portal/operator/"
    assert b"Pier Taqueria" in response.content

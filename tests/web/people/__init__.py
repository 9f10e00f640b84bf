"""Named people for the staff pages: alice works for San Clemente, bob for San Clemente and
the Town, charlie for the Town only, and dave for no agency."""

from __future__ import annotations

from django.contrib.auth.models import User

from fogkeeper.web.models import Membership
from tests.records import make_agency

PASSWORD = "correct horse battery"


def make_user(username: str, *agencies, role: str = "inspector") -> User:
    user = User.objects.create_user(username, password=PASSWORD)
    for agency in agencies:
        Membership.objects.create(user=user, agency=agency, role=role)
    return user


def two_agencies():
    sc = make_agency("san-clemente")
    town = make_agency("town-10-02", name="The Town")
    return sc, town

"""The agency a call acts for: X-Fogkeeper-Agency, or ?agency=, or the person's first."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from fogkeeper.web.models import Membership
from tests.api.conftest import api, codes, member

pytestmark = pytest.mark.django_db


@pytest.fixture
def bob(world):
    """An inspector of both agencies (the Town's name sorts after San Clemente's)."""
    member("bob", world.sc, "inspector")
    return member("bob", world.town, "inspector")


def test_it_acts_for_the_first_agency_by_default(bob):
    assert codes(api(bob).get("/api/v1/establishments/"), "code") == ["FSE-1", "FSE-2"]


def test_it_acts_for_the_agency_named_in_the_header(bob):
    response = api(bob, agency="town-10-02").get("/api/v1/establishments/")
    assert codes(response, "code") == ["FSE-9"]


def test_it_acts_for_the_agency_named_in_the_query(bob):
    response = api(bob).get("/api/v1/establishments/?agency=town-10-02")
    assert codes(response, "code") == ["FSE-9"]


def test_it_answers_404_for_an_agency_the_person_is_not_a_member_of(people):
    response = api(people["manager"], agency="town-10-02").get("/api/v1/establishments/")
    assert response.status_code == 404
    assert response.json()["detail"] == (
        "No such agency among yours. Send the X-Fogkeeper-Agency header (or ?agency=) with the "
        "code of one of yours: san-clemente."
    )


def test_it_answers_404_for_an_agency_that_does_not_exist(people):
    response = api(people["manager"], agency="atlantis").get("/api/v1/establishments/")
    assert response.status_code == 404


def test_it_answers_404_to_a_person_of_no_agency(world):
    response = api(User.objects.create_user("dave")).get("/api/v1/findings/")
    assert response.status_code == 404


def test_it_ends_access_at_once_when_the_membership_is_removed(people):
    client = api(people["auditor"])
    assert client.get("/api/v1/findings/").status_code == 200
    Membership.objects.filter(user=people["auditor"]).delete()
    assert client.get("/api/v1/findings/").status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "establishments",
        "devices",
        "permits",
        "services",
        "trainings",
        "inspections",
        "incidents",
        "findings",
    ],
)
def test_it_answers_404_for_a_record_of_another_agency_whatever_the_id(people, world, path):
    mine = api(people["town"]).get(f"/api/v1/{path}/").json()["results"][0]["id"]
    response = api(people["manager"]).get(f"/api/v1/{path}/{mine}/")
    assert response.status_code == 404
    assert api(people["town"]).get(f"/api/v1/{path}/{mine}/").status_code == 200

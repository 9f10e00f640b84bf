from __future__ import annotations

import pytest

from tests.api.conftest import api, codes
from tests.records import d, make_device

pytestmark = pytest.mark.django_db

URL = "/api/v1/devices/"


def test_it_shows_the_devices_frequency_from_its_permit_unless_it_has_its_own(people, world):
    make_device(world.pier, "GT-2", "trap", service_frequency_days=30)
    rows = api(people["hauler"]).get(f"{URL}?establishment=FSE-1").json()["results"]
    assert [(r["code"], r["service_frequency_days"]) for r in rows] == [("GI-1", 90), ("GT-2", 30)]


def test_it_filters_by_kind(people, world):
    make_device(world.grill, "GT-2", "trap")
    response = api(people["manager"]).get(f"{URL}?kind=trap")
    assert [(r["establishment"], r["code"]) for r in response.json()["results"]] == [
        ("FSE-2", "GT-2")
    ]


def test_it_filters_installed_and_removed_devices(people, world):
    make_device(world.grill, "GI-0", installed_on="2000-01-01", removed_on=d("2009-12-31"))
    removed = api(people["manager"]).get(f"{URL}?installed=false").json()["results"]
    assert [r["code"] for r in removed] == ["GI-0"]
    assert codes(api(people["manager"]).get(f"{URL}?installed=true")) == ["FSE-1", "FSE-2"]


def test_it_shows_a_hauler_the_devices_in_place_only(people, world):
    make_device(world.pier, "GI-0", installed_on="2000-01-01", removed_on=d("2009-12-31"))
    rows = api(people["hauler"]).get(URL).json()["results"]
    assert [r["code"] for r in rows] == ["GI-1"]
    assert set(rows[0]) == {
        "id",
        "establishment",
        "code",
        "kind",
        "capacity_gallons",
        "service_frequency_days",
    }
    assert api(people["hauler"]).get(f"{URL}?installed=false").status_code == 403


def test_it_refuses_devices_to_an_owner(people, world):
    response = api(people["owner"]).get(f"{URL}{world.device(world.pier).pk}/")
    assert response.status_code == 403

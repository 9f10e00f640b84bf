from __future__ import annotations

import pytest

from tests.api.conftest import api, codes
from tests.records import make_permit

pytestmark = pytest.mark.django_db

URL = "/api/v1/permits/"


def test_it_shows_a_permit(people, world):
    permit = world.pier.permits.get()
    body = api(people["owner"]).get(f"{URL}{permit.pk}/").json()
    assert (body["number"], body["status"], body["expires_on"]) == ("SC-1", "active", "2028-12-31")


def test_it_filters_by_status_and_expiry(people, world):
    make_permit(
        world.grill, "SC-0", issued_on="2019-01-01", expires_on="2023-12-31", status="superseded"
    )
    client = api(people["manager"])
    assert codes(client.get(f"{URL}?status=superseded"), "number") == ["SC-0"]
    assert codes(client.get(f"{URL}?expires_to=2024-01-01"), "number") == ["SC-0"]
    assert codes(client.get(f"{URL}?expires_from=2024-01-01"), "number") == ["SC-1", "SC-2"]


def test_it_refuses_permits_to_a_hauler(people, world):
    assert api(people["hauler"]).get(f"{URL}{world.pier.permits.get().pk}/").status_code == 403

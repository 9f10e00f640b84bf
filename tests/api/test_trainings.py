from __future__ import annotations

import pytest

from tests.api.conftest import api, codes
from tests.records import make_training

pytestmark = pytest.mark.django_db

URL = "/api/v1/trainings/"


def test_it_counts_the_employees_who_signed(people, world):
    body = api(people["operator"]).get(URL).json()["results"][0]
    assert (body["code"], body["date"], body["attendees"]) == ("FSE-1-T1", "2025-02-01", 1)


def test_it_filters_by_date_range(people, world):
    make_training(world.grill, "FSE-2-T2", "2026-02-01", [])
    client = api(people["manager"])
    assert codes(client.get(f"{URL}?date_from=2026-01-01"), "code") == ["FSE-2-T2"]
    assert codes(client.get(f"{URL}?date_to=2025-12-31"), "code") == ["FSE-1-T1", "FSE-2-T1"]

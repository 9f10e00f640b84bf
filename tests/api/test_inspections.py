from __future__ import annotations

import pytest

from fogkeeper.inspections.models import Inspection
from tests.api.conftest import api, codes
from tests.records import make_inspection

pytestmark = pytest.mark.django_db

URL = "/api/v1/inspections/"


def test_it_shows_the_operator_the_results_of_its_inspection(people):
    inspection = Inspection.objects.get(code="FSE-1-I1")
    body = api(people["operator"]).get(f"{URL}{inspection.pk}/").json()
    assert body["answers"] == [
        {"item": "bmp.food_waste_disposal", "device": None, "compliant": True, "note": ""}
    ]


def test_it_filters_by_establishment_and_date(people, world):
    make_inspection(world.pier, "FSE-1-I2", "2026-02-10")
    client = api(people["manager"])
    assert codes(client.get(f"{URL}?establishment=FSE-1"), "code") == ["FSE-1-I1", "FSE-1-I2"]
    assert codes(client.get(f"{URL}?date_from=2026-01-01"), "code") == ["FSE-1-I2"]

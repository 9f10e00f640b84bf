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
        {"item": "bmp.food_waste_disposal", "device": None, "compliant": True}
    ]


def test_it_keeps_the_inspectors_notes_from_the_operator(people):
    inspection = Inspection.objects.get(code="FSE-1-I1")
    inspection.notes = "Owner argued; check the trap again"
    inspection.save()
    inspection.answers.update(note="grease on the floor")
    staff = api(people["inspector"]).get(f"{URL}{inspection.pk}/")
    operator = api(people["operator"]).get(f"{URL}{inspection.pk}/")
    assert (
        "Owner argued" in staff.content.decode() and "grease on the floor" in staff.content.decode()
    )
    assert "notes" not in operator.json() and "note" not in operator.json()["answers"][0]
    assert (
        b"Owner argued" not in operator.content and b"grease on the floor" not in operator.content
    )


def test_it_filters_by_establishment_and_date(people, world):
    make_inspection(world.pier, "FSE-1-I2", "2026-02-10")
    client = api(people["manager"])
    assert codes(client.get(f"{URL}?establishment=FSE-1"), "code") == ["FSE-1-I1", "FSE-1-I2"]
    assert codes(client.get(f"{URL}?date_from=2026-01-01"), "code") == ["FSE-1-I2"]

from __future__ import annotations

import pytest

from fogkeeper.maintenance.models import Service
from fogkeeper.maintenance.services import service_dispute
from tests.api.conftest import api, codes
from tests.records import d

pytestmark = pytest.mark.django_db

URL = "/api/v1/services/"


def test_it_shows_a_pump_out_with_its_readings(people):
    service = Service.objects.get(manifest_number="C-1")
    body = api(people["manager"]).get(f"{URL}{service.pk}/").json()
    assert body["establishment"] == "FSE-1"
    assert (body["device_code"], body["hauler"], body["date"]) == ("GI-1", "H-1", "2025-10-01")
    assert body["fog_inches"] == "3.00"
    assert body["disputed"] is False


def test_it_shows_the_operator_the_readings_but_not_the_haulers_data(people):
    service = Service.objects.get(manifest_number="C-1")
    body = api(people["operator"]).get(f"{URL}{service.pk}/").json()
    assert (body["device_code"], body["date"], body["fog_inches"]) == ("GI-1", "2025-10-01", "3.00")
    assert not {"hauler", "notes", "source", "disputed"} & set(body)


def test_it_answers_404_to_a_hauler_for_another_haulers_pump_out_at_its_customer(people):
    rivals = Service.objects.get(manifest_number="R-1")  # Rival's, at Coastal's customer FSE-1
    assert api(people["hauler"]).get(f"{URL}{rivals.pk}/").status_code == 404


def test_it_shows_staff_that_a_pump_out_is_disputed(people):
    service = Service.objects.get(manifest_number="R-2")
    service_dispute(
        service=service, reason="no manifest", raised_on=d("2026-02-01"), actor=people["inspector"]
    )
    assert api(people["manager"]).get(f"{URL}{service.pk}/").json()["disputed"] is True


def test_it_filters_by_date_range(people):
    client = api(people["manager"])
    assert codes(client.get(f"{URL}?date_from=2025-10-01"), "manifest_number") == ["C-1", "R-2"]
    assert codes(client.get(f"{URL}?date_to=2025-09-30"), "manifest_number") == ["R-1"]


def test_it_filters_by_establishment_and_device(people, world):
    client = api(people["manager"])
    assert codes(client.get(f"{URL}?establishment=FSE-2"), "manifest_number") == ["R-2"]
    device = world.device(world.pier).pk
    assert codes(client.get(f"{URL}?device={device}"), "manifest_number") == ["C-1", "R-1"]


def test_it_refuses_a_date_that_is_not_one(people):
    response = api(people["manager"]).get(f"{URL}?date_from=2025-02-30")
    assert response.status_code == 400
    assert response.json() == {"date_from": ["Send date_from as a date, YYYY-MM-DD."]}

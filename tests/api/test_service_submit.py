"""A hauler submits its pump-outs: POST /api/v1/services/, through service_submit, idempotent
on the manifest, then the establishment is evaluated again at once."""

from __future__ import annotations

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import Finding
from fogkeeper.maintenance.models import Service
from tests.api.conftest import TODAY, api

pytestmark = pytest.mark.django_db

URL = "/api/v1/services/"


def pump_out(world, **kw):
    data = {
        "device": world.device(world.pier).pk,
        "manifest_number": "C-2",
        "date": TODAY,
        "gallons_removed": "900.0",
        "fog_inches": "4.25",
        "solids_inches": "2.00",
    }
    return {**data, **kw}


def overdue(world) -> bool:
    return Finding.objects.filter(
        establishment=world.pier, rule="gcd.service_overdue", open=True
    ).exists()


def test_it_records_the_haulers_pump_out(people, world):
    response = api(people["hauler"]).post(URL, pump_out(world), format="json")
    assert response.status_code == 201
    body = response.json()
    assert (body["establishment"], body["source"], body["disputed"]) == (
        "FSE-1",
        "hauler_api",
        False,
    )
    assert "hauler" not in body  # its portal does not show it either
    service = Service.objects.get(manifest_number="C-2")
    assert service.submitted_by == people["hauler"]
    assert str(service.fog_inches) == "4.25"


def test_it_writes_an_audit_row_for_the_submission(people, world):
    api(people["hauler"]).post(URL, pump_out(world), format="json")
    event = AuditEvent.objects.get(action="service.record")
    assert event.actor == people["hauler"]
    assert event.after["manifest_number"] == "C-2"


def test_it_answers_200_and_adds_nothing_when_the_same_manifest_comes_again(people, world):
    client = api(people["hauler"])
    first = client.post(URL, pump_out(world), format="json")
    again = client.post(URL, pump_out(world), format="json")
    assert again.status_code == 200
    assert again.json() == first.json()
    assert Service.objects.filter(manifest_number="C-2").count() == 1
    assert AuditEvent.objects.filter(action="service.record").count() == 1


def test_it_refuses_the_same_manifest_with_other_readings(people, world):
    client = api(people["hauler"])
    client.post(URL, pump_out(world), format="json")
    response = client.post(URL, pump_out(world, fog_inches="9.00"), format="json")
    assert response.status_code == 400
    assert "already sent with a different FOG depth;" in response.json()["manifest_number"][0]


def test_it_clears_the_overdue_finding_at_once(people, world):
    assert overdue(world)
    api(people["hauler"]).post(URL, pump_out(world), format="json")
    assert not overdue(world)
    listed = api(people["manager"]).get(
        "/api/v1/findings/?establishment=FSE-1&rule=gcd.service_overdue&open=true"
    )
    assert listed.json()["count"] == 0


@pytest.mark.parametrize("fse", ["grill", "diner"])
def test_it_refuses_a_device_it_does_not_serve_with_the_same_words_as_no_device(people, world, fse):
    device = world.device(getattr(world, fse))
    response = api(people["hauler"]).post(URL, pump_out(world, device=device.pk), format="json")
    assert response.status_code == 400
    none = api(people["hauler"]).post(URL, pump_out(world, device=987654), format="json")
    (words,) = none.json()["device"]
    assert response.json() == {"device": [words.replace("987654", str(device.pk))]}
    assert not Service.objects.filter(manifest_number="C-2").exists()


def test_it_refuses_a_date_in_the_future(people, world):
    response = api(people["hauler"]).post(URL, pump_out(world, date="2026-03-03"), format="json")
    assert response.status_code == 400
    assert response.json() == {"date": ["2026-03-03 is in the future."]}


def test_it_refuses_a_negative_depth_by_field_in_words(people, world):
    response = api(people["hauler"]).post(URL, pump_out(world, fog_inches="-1"), format="json")
    assert response.status_code == 400
    assert response.json() == {"fog_inches": ["Send fog_inches of at least 0."]}


def test_it_refuses_fog_and_solids_deeper_than_the_device_naming_its_depth(people, world):
    """60 in of solids in a 48-in interceptor is a misreading: refused, and nothing stored."""
    device = world.device(world.pier)
    device.design_depth_inches = 48
    device.save()
    data = pump_out(world, fog_inches="10", solids_inches="60")
    response = api(people["hauler"]).post(URL, data, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "solids_inches": [
            f"{device.code}: FOG (10 in) and solids (60 in) come to 70 in, more than its "
            "design depth of 48 in; check the readings."
        ]
    }
    assert not Service.objects.filter(manifest_number="C-2").exists()


def test_it_refuses_a_submission_without_a_manifest(people, world):
    response = api(people["hauler"]).post(URL, pump_out(world, manifest_number=" "), format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["manifest_number"]


@pytest.mark.parametrize("role", ["manager", "inspector", "clerk", "auditor", "operator", "owner"])
def test_it_takes_submissions_only_from_a_hauler(people, world, role):
    response = api(people[role]).post(URL, pump_out(world), format="json")
    assert response.status_code == 403
    assert not Service.objects.filter(manifest_number="C-2").exists()


def test_a_device_not_at_the_agency_the_call_acts_for_says_what_to_send(people, world):
    """Issue 39: without the agency header a device of another agency got 'Invalid pk "6"'."""
    diner = world.device(world.diner).pk  # the Town's: not this call's agency
    response = api(people["hauler"]).post(URL, pump_out(world, device=diner), format="json")
    assert response.status_code == 400
    (text,) = response.json()["device"]
    assert "Invalid pk" not in text
    assert text.startswith(f"No device of your customers {diner} among yours at ")
    assert "you sent no X-Fogkeeper-Agency header" in text
    assert "GET /api/v1/devices/" in text


@pytest.mark.parametrize(
    ("sent", "key", "words"),
    [
        ({"date": None}, "date", "Send date (the day of the pump-out (not in the future)): "),
        ({"date": "2 March"}, "date", "Send date as a date, YYYY-MM-DD"),
        ({"fog_inches": "deep"}, "fog_inches", 'as a number in a string, for example "3.50"'),
        ({"fog_inches": "-1"}, "fog_inches", "Send fog_inches of at least 0."),
        ({"full_pump_out": "maybe"}, "full_pump_out", "Send full_pump_out as true or false."),
        ({"device": "GT-1"}, "device", "Send device (the device's id) as a whole number"),
    ],
)
def test_a_refused_field_says_what_to_send(people, world, sent, key, words):
    response = api(people["hauler"]).post(URL, pump_out(world, **sent), format="json")
    assert response.status_code == 400
    assert words in " ".join(response.json()[key])
    assert "This field" not in " ".join(response.json()[key])


def test_a_missing_field_is_named(people, world):
    data = pump_out(world)
    del data["manifest_number"]
    response = api(people["hauler"]).post(URL, data, format="json")
    (text,) = response.json()["manifest_number"]
    assert text == (
        "Send manifest_number (the hauler's manifest number, as printed): it is required."
    )

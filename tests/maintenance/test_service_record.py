from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.maintenance.models import Service
from fogkeeper.maintenance.services import service_record
from tests.audit.people import alice, events
from tests.records import make_agency, make_device, make_establishment, make_hauler, make_service

pytestmark = pytest.mark.django_db


@pytest.fixture
def device():
    return make_device(make_establishment(make_agency()), installed_on="2010-01-01")


def test_it_records_a_pump_out_with_an_audit_row(device):
    hauler = make_hauler(device.establishment.agency)
    service = service_record(
        device=device,
        hauler=hauler,
        manifest_number="M-1",
        date=date(2025, 2, 3),
        fog_inches=Decimal("4.5"),
        actor=alice(),
    )
    (event,) = events("service.record")
    assert (event.object_id, event.agency) == (str(service.pk), device.establishment.agency)
    assert (event.after["fog_inches"], event.actor.username) == ("4.5", "alice")


def test_it_refuses_a_device_of_another_agency(device):
    town = make_agency("town-10-02")
    with pytest.raises(ValidationError) as e:
        service_record(agency=town, device=device, manifest_number="M-1", date=date(2025, 2, 3))
    assert "another agency" in e.value.message_dict["device"][0]
    assert not Service.objects.exists()


def test_it_refuses_a_hauler_of_another_agency(device):
    stranger = make_hauler(make_agency("town-10-02"))
    with pytest.raises(ValidationError) as e:
        service_record(device=device, hauler=stranger, manifest_number="M-1", date=date(2025, 2, 3))
    assert "hauler" in e.value.message_dict


def test_it_refuses_a_negative_depth(device):
    with pytest.raises(ValidationError) as e:
        service_record(
            device=device, manifest_number="M-1", date=date(2025, 2, 3), solids_inches=Decimal("-1")
        )
    assert e.value.message_dict == {"solids_inches": ["Cannot be negative (got -1)."]}
    assert not Service.objects.exists() and events() == []


def test_it_refuses_a_manifest_the_hauler_already_turned_in(device):
    hauler = make_hauler(device.establishment.agency, name="Orange Pumping")
    make_service(device, "M-1", "2025-01-06", hauler=hauler)
    with pytest.raises(ValidationError) as e:
        service_record(device=device, hauler=hauler, manifest_number="M-1", date=date(2025, 2, 3))
    (message,) = e.value.message_dict["manifest_number"]
    assert message == (
        "Manifest M-1 of Orange Pumping is already recorded: GI-1 at Pier Taqueria on 2025-01-06."
    )
    assert Service.objects.count() == 1


def test_it_lets_two_haulers_use_the_same_manifest_number(device):
    agency = device.establishment.agency
    make_service(device, "M-1", "2025-01-06", hauler=make_hauler(agency, code="H-1"))
    hauler = make_hauler(agency, code="H-2")
    service_record(device=device, hauler=hauler, manifest_number="M-1", date=date(2025, 2, 3))
    assert Service.objects.count() == 2


def test_it_refuses_a_pump_out_before_the_installation(device):
    with pytest.raises(ValidationError) as e:
        service_record(device=device, manifest_number="M-1", date=date(2009, 12, 31))
    assert "installation" in e.value.message_dict["date"][0]


def test_it_refuses_a_pump_out_without_a_manifest(device):
    with pytest.raises(ValidationError) as e:
        service_record(device=device, manifest_number="", date=date(2025, 2, 3))
    assert list(e.value.message_dict) == ["manifest_number"]

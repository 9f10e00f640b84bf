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
    hauler = make_hauler(device.establishment.agency)
    with pytest.raises(ValidationError) as e:
        service_record(
            device=device,
            hauler=hauler,
            manifest_number="M-1",
            date=date(2025, 2, 3),
            solids_inches=Decimal("-1"),
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
    hauler = make_hauler(device.establishment.agency)
    with pytest.raises(ValidationError) as e:
        service_record(device=device, hauler=hauler, manifest_number="", date=date(2025, 2, 3))
    assert list(e.value.message_dict) == ["manifest_number"]


def test_it_refuses_a_staff_pump_out_without_its_hauler(device):
    with pytest.raises(ValidationError) as e:
        service_record(device=device, manifest_number="M-1", date=date(2025, 2, 3))
    assert e.value.message_dict == {
        "hauler": ["A pump-out names the hauler that did it (its manifest)."]
    }
    assert not Service.objects.exists() and events() == []


def test_it_takes_one_manifest_for_two_devices_of_the_establishment_on_one_date(device):
    hauler = make_hauler(device.establishment.agency)
    trap = make_device(device.establishment, "GT-2", "trap", installed_on="2010-01-01")
    for d in (device, trap):
        service_record(device=d, hauler=hauler, manifest_number="M-1", date=date(2025, 2, 3))
    assert Service.objects.filter(manifest_number="M-1").count() == 2


def test_it_refuses_the_manifest_of_that_visit_for_the_same_device_again(device):
    hauler = make_hauler(device.establishment.agency)
    service_record(device=device, hauler=hauler, manifest_number="M-1", date=date(2025, 2, 3))
    with pytest.raises(ValidationError) as e:
        service_record(device=device, hauler=hauler, manifest_number="M-1", date=date(2025, 2, 3))
    assert "already recorded" in e.value.message_dict["manifest_number"][0]
    assert Service.objects.count() == 1


def test_it_refuses_the_manifest_for_a_device_of_another_establishment(device):
    hauler = make_hauler(device.establishment.agency)
    elsewhere = make_device(
        make_establishment(device.establishment.agency, code="FSE-2"), installed_on="2010-01-01"
    )
    service_record(device=device, hauler=hauler, manifest_number="M-1", date=date(2025, 2, 3))
    with pytest.raises(ValidationError) as e:
        service_record(
            device=elsewhere, hauler=hauler, manifest_number="M-1", date=date(2025, 2, 3)
        )
    assert "manifest_number" in e.value.message_dict
    assert Service.objects.count() == 1


def test_it_refuses_a_pump_out_after_today(device):
    hauler = make_hauler(device.establishment.agency)
    with pytest.raises(ValidationError) as e:
        service_record(
            device=device,
            hauler=hauler,
            manifest_number="M-1",
            date=date(2025, 2, 3),
            today=date(2025, 2, 2),
        )
    assert e.value.message_dict == {"date": ["2025-02-03 is in the future."]}
    assert events() == []


def test_it_refuses_fog_and_solids_deeper_than_the_device(device):
    """Issue 39: the hauler's form and the API store through here too."""
    device.design_depth_inches = Decimal("48")
    device.save()
    hauler = make_hauler(device.establishment.agency)
    with pytest.raises(ValidationError) as e:
        service_record(
            device=device,
            hauler=hauler,
            manifest_number="M-1",
            date=date(2025, 2, 3),
            fog_inches=Decimal("12"),
            solids_inches=Decimal("60"),
        )
    assert e.value.message_dict == {
        "solids_inches": [
            "GI-1: FOG (12 in) and solids (60 in) come to 72 in, more than its design depth of "
            "48 in; check the readings."
        ]
    }
    assert not Service.objects.exists() and events() == []

"""An operator files a waste cooking oil (yellow grease) pickup from the collector's receipt."""

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.maintenance.models import YellowGreasePickup
from fogkeeper.registry.models import Hauler
from tests.records import make_permit

from .conftest import PIER

pytestmark = pytest.mark.django_db

URL = f"{PIER}yellow-grease/"


@pytest.fixture
def weekly(world, today):
    """Harbor Eats' own permit asks for a pickup every 7 days; the last was on 2025-06-15."""
    make_permit(
        world.pier,
        "FSE-0042-P3",
        issued_on="2025-02-01",
        expires_on="2030-01-31",
        holder="Harbor Eats Inc",
        yellow_grease_frequency_days=7,
    )
    sweep_establishment(world.pier, as_of=today)


def overdue():
    return Finding.objects.filter(rule="yellow_grease.collection_overdue", open=True)


def receipt(**kw):
    coastal = Hauler.objects.get(name="Coastal Pumping")
    return {
        "date": "2025-06-29",
        "hauler": coastal.pk,
        "gallons": "48",
        "manifest_number": "R-1",
        **kw,
    }


def test_it_files_the_pickup_and_closes_the_overdue_finding(as_olive, olive, weekly):
    assert overdue().exists()
    response = as_olive.post(URL, receipt(), follow=True)
    pickup = YellowGreasePickup.objects.get(manifest_number="R-1")
    assert str(pickup.gallons) == "48.0" and pickup.hauler.name == "Coastal Pumping"
    assert not overdue().exists()
    assert AuditEvent.objects.get(action="pickup.record").actor == olive
    assert "Waste cooking oil pickup of 2025-06-29 filed." in response.content.decode()


def test_it_takes_a_collector_not_listed(as_olive, weekly):
    as_olive.post(URL, receipt(hauler=""))
    assert YellowGreasePickup.objects.get(manifest_number="R-1").hauler is None


def test_it_names_each_missing_field_and_files_nothing(as_olive, weekly):
    response = as_olive.post(URL, {"date": "2025-06-29"})
    html = response.content.decode()
    assert response.status_code == 400
    assert html.count("This field is required.") == 2  # gallons and the receipt number
    assert not YellowGreasePickup.objects.filter(date="2025-06-29").exists()


def test_it_refuses_negative_gallons(as_olive, weekly):
    response = as_olive.post(URL, receipt(gallons="-5"))
    assert "Ensure this value is greater than or equal to 0." in response.content.decode()
    assert not YellowGreasePickup.objects.filter(manifest_number="R-1").exists()


def test_it_refuses_a_pickup_in_the_future(as_olive, weekly):
    response = as_olive.post(URL, receipt(date="2025-07-04"))
    assert "The pickup date cannot be in the future" in response.content.decode()


def test_it_shows_the_services_message_for_a_receipt_filed_twice(as_olive, weekly):
    as_olive.post(URL, receipt())
    response = as_olive.post(URL, receipt(date="2025-06-30"))
    assert response.status_code == 400
    assert "Manifest R-1 of Coastal Pumping is already recorded." in response.content.decode()
    assert YellowGreasePickup.objects.filter(manifest_number="R-1").count() == 1


def test_it_offers_no_collector_of_another_agency(as_olive, world, weekly):
    foreign = Hauler.objects.create(agency=world.town, code="TH-1", name="Desert Grease")
    response = as_olive.post(URL, receipt(hauler=foreign.pk))
    assert "Select a valid choice." in response.content.decode()
    assert not YellowGreasePickup.objects.filter(manifest_number="R-1").exists()

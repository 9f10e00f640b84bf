from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.apps import apps
from django.urls import reverse

from fogkeeper.audit.models import AuditEvent
from fogkeeper.registry.models import Hauler, ServiceContract
from tests.admin_forms import change_form_data
from tests.records import make_agency, make_device, make_establishment, make_hauler

pytestmark = pytest.mark.django_db

MARCH_1_2025 = datetime(2025, 3, 1, 9, tzinfo=ZoneInfo("America/Los_Angeles"))


@pytest.fixture
def records():
    agency = make_agency()
    fse = make_establishment(agency)
    make_device(fse)
    make_hauler(agency)
    return fse


@pytest.mark.parametrize("model", list(apps.get_app_config("registry").get_models()))
def test_it_lists_and_searches_every_model(admin_client, records, model):
    url = reverse(f"admin:registry_{model._meta.model_name}_changelist")
    assert admin_client.get(url).status_code == 200
    assert admin_client.get(url, {"q": "pier"}).status_code == 200


def test_it_shows_an_establishment_with_its_inlines(admin_client, records):
    url = reverse("admin:registry_foodserviceestablishment_change", args=[records.pk])
    response = admin_client.get(url)
    assert response.status_code == 200
    assert b"Pier Foods LLC" in response.content


def test_it_audits_a_save_in_the_admin(admin_client, admin_user):
    url = reverse("admin:registry_agency_add")
    data = {
        "code": "sc",
        "name": "City of San Clemente",
        "pack": "san-clemente",
        "history_grace_days": "60",
    }  # the form shows its default
    admin_client.post(url, data)
    (event,) = AuditEvent.objects.exclude(object_type="auth.user")
    assert (event.action, event.actor, event.reason) == ("agency.add", admin_user, "admin")


def test_it_saves_an_establishment_west_of_greenwich(admin_client, records):
    url = reverse("admin:registry_foodserviceestablishment_change", args=[records.pk])
    data = change_form_data(admin_client.get(url))
    data.update(latitude="33.427400", longitude="-117.612000")
    assert admin_client.post(url, data).status_code == 302
    records.refresh_from_db()
    assert (str(records.latitude), str(records.longitude)) == ("33.427400", "-117.612000")


def test_it_refuses_coordinates_off_the_globe(admin_client, records):
    url = reverse("admin:registry_foodserviceestablishment_change", args=[records.pk])
    data = change_form_data(admin_client.get(url))
    data.update(latitude="91", longitude="-181")
    response = admin_client.post(url, data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert set(errors) == {"latitude", "longitude"}
    records.refresh_from_db()
    assert records.longitude is None


@time_machine.travel(MARCH_1_2025, tick=False)
def test_it_refuses_to_delete_a_current_service_contract(admin_client, records):
    contract = ServiceContract.objects.create(
        hauler=Hauler.objects.get(), establishment=records, since=date(2024, 1, 1)
    )
    url = reverse("admin:registry_servicecontract_delete", args=[contract.pk])
    response = admin_client.post(url, {"post": "yes"}, follow=True)
    assert "is current: records are kept while current" in response.content.decode()
    assert ServiceContract.objects.filter(pk=contract.pk).exists()


@time_machine.travel(MARCH_1_2025, tick=False)
def test_it_refuses_to_delete_a_recently_ended_service_contract(admin_client, records):
    contract = ServiceContract.objects.create(
        hauler=Hauler.objects.get(),
        establishment=records,
        since=date(2024, 1, 1),
        until=date(2025, 1, 31),
    )
    url = reverse("admin:registry_servicecontract_delete", args=[contract.pk])
    response = admin_client.post(url, {"post": "yes"}, follow=True)
    assert "within the" in response.content.decode()
    assert ServiceContract.objects.filter(pk=contract.pk).exists()

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.apps import apps
from django.urls import reverse

from fogkeeper.audit.models import AuditEvent
from fogkeeper.maintenance.models import Service, ServiceDispute
from tests.records import make_agency, make_device, make_establishment, make_hauler, make_service

pytestmark = pytest.mark.django_db

MARCH_1_2025 = datetime(2025, 3, 1, 9, tzinfo=ZoneInfo("America/Los_Angeles"))


def service_on(date_: str, pack: str = "san-clemente") -> Service:
    agency = make_agency(pack)
    device = make_device(make_establishment(agency))
    return make_service(device, f"M-{date_}", date_, hauler=make_hauler(agency))


@pytest.mark.parametrize("model", list(apps.get_app_config("maintenance").get_models()))
def test_it_lists_and_searches_every_model(admin_client, model):
    service_on("2025-01-06")
    url = reverse(f"admin:maintenance_{model._meta.model_name}_changelist")
    assert admin_client.get(url).status_code == 200
    assert admin_client.get(url, {"q": "M-1"}).status_code == 200


@time_machine.travel(MARCH_1_2025, tick=False)
def test_it_refuses_to_delete_a_record_inside_the_retention_period(admin_client):
    service = service_on("2022-03-01")
    url = reverse("admin:maintenance_service_delete", args=[service.pk])
    response = admin_client.post(url, {"post": "yes"}, follow=True)
    assert "may be deleted from 2025-03-02" in response.content.decode()
    assert Service.objects.filter(pk=service.pk).exists()


@time_machine.travel(MARCH_1_2025, tick=False)
def test_it_deletes_a_record_past_the_retention_period(admin_client):
    service = service_on("2022-02-28")
    url = reverse("admin:maintenance_service_delete", args=[service.pk])
    admin_client.post(url, {"post": "yes"})
    assert not Service.objects.exists()


@time_machine.travel(MARCH_1_2025, tick=False)
def test_it_deletes_in_bulk_only_what_is_past_the_retention_period(admin_client):
    old, recent = service_on("2023-02-28", "town-10-02"), service_on("2022-03-01")
    data = {"action": "delete_selected", "_selected_action": [old.pk, recent.pk], "post": "yes"}
    url = reverse("admin:maintenance_service_changelist")
    response = admin_client.post(url, data, follow=True)
    assert list(Service.objects.all()) == [recent]
    assert "Deleted 1 record(s)." in response.content.decode()
    assert "M-2022-03-01 (2022-03-01)” was not deleted" in response.content.decode()


@time_machine.travel(MARCH_1_2025, tick=False)
def test_it_refuses_to_delete_an_open_dispute(admin_client, admin_user):
    service = service_on("2025-02-03")
    dispute = ServiceDispute.objects.create(
        service=service, raised_by=admin_user, raised_on=service.date, reason="Gallons too high"
    )
    url = reverse("admin:maintenance_servicedispute_delete", args=[dispute.pk])
    response = admin_client.post(url, {"post": "yes"}, follow=True)
    assert "is current: records are kept while current" in response.content.decode()
    assert ServiceDispute.objects.filter(pk=dispute.pk).exists()


@time_machine.travel(MARCH_1_2025, tick=False)
def test_it_keeps_a_recorded_pump_out_as_it_was_recorded(admin_client):
    service = service_on("2025-02-03")
    url = reverse("admin:maintenance_service_change", args=[service.pk])
    assert 'name="date"' not in admin_client.get(url).content.decode()
    data = {"date": "2025-02-20", "manifest_number": "M-X", "device": service.device_id}
    admin_client.post(url, data)
    service.refresh_from_db()
    assert (str(service.date), service.manifest_number) == ("2025-02-03", "M-2025-02-03")
    assert not AuditEvent.objects.filter(action="service.change").exists()


def test_it_still_records_a_pump_out_in_the_admin(admin_client):
    device = service_on("2025-01-06").device
    url = reverse("admin:maintenance_service_add")
    data = {
        "device": device.pk,
        "manifest_number": "M-9",
        "date": "2025-01-20",
        "source": "staff",
        "full_pump_out": "on",
        "final_chamber_floating_oil": "unknown",
    }
    admin_client.post(url, data)
    assert Service.objects.filter(manifest_number="M-9").exists()

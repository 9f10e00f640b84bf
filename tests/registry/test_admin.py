import pytest
from django.apps import apps
from django.urls import reverse

from fogkeeper.audit.models import AuditEvent
from tests.records import make_agency, make_device, make_establishment, make_hauler

pytestmark = pytest.mark.django_db


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
    data = {"code": "sc", "name": "City of San Clemente", "pack": "san-clemente"}
    admin_client.post(url, data)
    (event,) = AuditEvent.objects.all()
    assert (event.action, event.actor, event.reason) == ("agency.add", admin_user, "admin")

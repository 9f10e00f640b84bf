import pytest
from django.apps import apps
from django.urls import reverse

from fogkeeper.permits.models import PermitApplication
from tests.records import d, make_agency, make_establishment, make_permit

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", list(apps.get_app_config("permits").get_models()))
def test_it_lists_and_searches_every_model(admin_client, model):
    permit = make_permit(make_establishment(make_agency()))
    PermitApplication.objects.create(
        establishment=permit.establishment,
        renewal_of=permit,
        submitted_on=d("2028-10-01"),
        applicant_name="Pier Foods LLC",
        applicant_address="101 Avenida Del Mar",
    )
    url = reverse(f"admin:permits_{model._meta.model_name}_changelist")
    assert admin_client.get(url).status_code == 200
    assert admin_client.get(url, {"q": "pier"}).status_code == 200


def test_it_shows_a_permit(admin_client):
    permit = make_permit(make_establishment(make_agency()), number="SC-77")
    response = admin_client.get(reverse("admin:permits_permit_change", args=[permit.pk]))
    assert b"SC-77" in response.content

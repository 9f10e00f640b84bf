import pytest
from django.apps import apps
from django.urls import reverse

from tests.records import make_agency, make_device, make_establishment, make_inspection

pytestmark = pytest.mark.django_db


def inspected():
    fse = make_establishment(make_agency())
    gi = make_device(fse)
    answers = [("bmp.dry_wipe", True), ("bmp.spill_kit", False, gi)]
    return make_inspection(fse, "I-1", "2025-02-03", answers, [(gi, {"fog_inches": 2})])


@pytest.mark.parametrize("model", list(apps.get_app_config("inspections").get_models()))
def test_it_lists_and_searches_every_model(admin_client, model):
    inspected()
    url = reverse(f"admin:inspections_{model._meta.model_name}_changelist")
    assert admin_client.get(url).status_code == 200
    assert admin_client.get(url, {"q": "I-1"}).status_code == 200


def test_it_shows_an_inspection_with_its_answers(admin_client):
    inspection = inspected()
    url = reverse("admin:inspections_inspection_change", args=[inspection.pk])
    assert "bmp.dry_wipe" in admin_client.get(url).content.decode()

import io
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from fogkeeper.inspections.models import InspectionPhoto
from fogkeeper.inspections.services import inspection_photo_add
from tests.records import make_agency, make_device, make_establishment, make_inspection

pytestmark = pytest.mark.django_db

MARCH_1_2025 = datetime(2025, 3, 1, 9, tzinfo=ZoneInfo("America/Los_Angeles"))


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


def png() -> SimpleUploadedFile:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), "#885522").save(buf, "PNG")
    return SimpleUploadedFile("trap.png", buf.getvalue(), content_type="image/png")


@pytest.fixture
def photo(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return inspection_photo_add(inspection=inspected(), image=png(), caption="Trap lid")


@time_machine.travel(MARCH_1_2025, tick=False)
def test_it_refuses_to_delete_a_recent_inspection_photo(admin_client, photo):
    url = reverse("admin:inspections_inspectionphoto_delete", args=[photo.pk])
    response = admin_client.post(url, {"post": "yes"}, follow=True)
    assert response.status_code == 200
    assert "may be deleted from" in response.content.decode()
    assert InspectionPhoto.objects.filter(pk=photo.pk).exists()


@time_machine.travel(datetime(2040, 1, 1, 9, tzinfo=ZoneInfo("America/Los_Angeles")), tick=False)
def test_it_deletes_an_old_inspection_photo_with_its_file(
    client, admin_user, photo, django_capture_on_commit_callbacks
):
    client.force_login(admin_user)  # signed in in 2040, not before (the session would expire)
    path = Path(photo.image.path)
    url = reverse("admin:inspections_inspectionphoto_delete", args=[photo.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"post": "yes"})
    assert response.status_code == 302
    assert not InspectionPhoto.objects.exists() and not path.exists()

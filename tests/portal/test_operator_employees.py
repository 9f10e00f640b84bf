"""An operator keeps its establishment's employee roster in the portal, and files a training
with its signed log, which the operator and the staff can download."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from fogkeeper.audit.models import AuditEvent
from fogkeeper.training.models import Employee, Training
from tests.images import declared_png
from tests.web.people import make_user

from .conftest import PIER

pytestmark = pytest.mark.django_db

PDF = b"%PDF-1.4 signed attendance log"


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 3)).save(buf, "PNG")
    return buf.getvalue()


def test_the_roster_lists_current_employees(as_olive):
    html = as_olive.get(f"{PIER}employees/").content.decode()
    assert "Ana Ruiz" in html and "Add an employee" in html


def test_adding_an_employee_puts_it_on_the_roster_with_an_audit_row(as_olive, olive):
    data = {"name": "Rita Vega", "hired_on": "2025-06-20", "kitchen_duties": "on"}
    response = as_olive.post(f"{PIER}employees/new/", data, follow=True)
    rita = Employee.objects.get(name="Rita Vega")
    assert rita.kitchen_duties and rita.establishment.code == "FSE-0042"
    assert AuditEvent.objects.filter(action="employee.hire", actor=olive).exists()
    assert "Rita Vega added to the roster" in response.content.decode()


def test_a_hiring_date_in_the_future_is_refused_and_nothing_written(as_olive):
    before = Employee.objects.count()
    response = as_olive.post(f"{PIER}employees/new/", {"name": "Rita", "hired_on": "2025-07-09"})
    assert response.status_code == 400
    assert "The hiring date cannot be in the future" in response.content.decode()
    assert Employee.objects.count() == before


def test_recording_a_leaver(as_olive, olive):
    ana = Employee.objects.get(name="Ana Ruiz")
    as_olive.post(f"{PIER}employees/{ana.pk}/left/", {"left_on": "2025-06-28"})
    ana.refresh_from_db()
    assert ana.left_on.isoformat() == "2025-06-28"
    assert AuditEvent.objects.filter(action="employee.leave", actor=olive).exists()


def test_a_leaving_date_before_the_hiring_is_refused(as_olive):
    ana = Employee.objects.get(name="Ana Ruiz")
    response = as_olive.post(f"{PIER}employees/{ana.pk}/left/", {"left_on": "1990-01-01"})
    assert response.status_code == 400 and "is before the hiring" in response.content.decode()
    ana.refresh_from_db()
    assert ana.left_on is None


def test_another_establishments_roster_and_employees_answer_404(as_olive, world):
    grill_hand = Employee.objects.create(
        establishment=world.grill, code="G-1", name="Gus", hired_on="2024-01-01"
    )
    assert as_olive.get("/portal/operator/FSE-2/employees/").status_code == 404
    assert as_olive.post("/portal/operator/FSE-2/employees/new/", {}).status_code == 404
    response = as_olive.post(f"{PIER}employees/{grill_hand.pk}/left/", {"left_on": "2025-06-28"})
    assert response.status_code == 404


def _training(as_olive, log):
    ana = Employee.objects.get(name="Ana Ruiz")
    data = {"date": "2025-06-20", "attendees": [ana.pk], "signed": [ana.pk], "log": log}
    return as_olive.post(f"{PIER}training/", data, follow=True)


def test_a_training_is_filed_with_its_signed_log_and_both_can_download_it(as_olive, world):
    response = _training(as_olive, SimpleUploadedFile("log.pdf", PDF))
    assert "and its signed log" in response.content.decode()
    training = Training.objects.get(date="2025-06-20")
    assert training.log.name.endswith(".pdf")
    assert AuditEvent.objects.filter(action="training.log_attach").exists()
    mine = as_olive.get(f"{PIER}trainings/{training.pk}/log/")
    assert b"".join(mine.streaming_content) == PDF
    as_olive.force_login(make_user("ivan", world.sc, role="inspector"))
    staff = as_olive.get(f"/establishments/FSE-0042/trainings/{training.pk}/log/")
    assert b"".join(staff.streaming_content) == PDF


def test_a_png_photo_of_the_log_is_accepted(as_olive):
    _training(as_olive, SimpleUploadedFile("log.png", png(), content_type="image/png"))
    assert Training.objects.get(date="2025-06-20").log.name.endswith(".png")


def test_a_file_that_is_not_a_pdf_or_image_is_refused_and_no_training_filed(as_olive):
    fake = SimpleUploadedFile("log.pdf", b"MZ not really a pdf", content_type="application/pdf")
    response = _training(as_olive, fake)
    assert response.status_code == 400
    assert "The log must be a PDF, or a JPEG or PNG" in response.content.decode()
    assert not Training.objects.filter(date="2025-06-20").exists()


def test_a_log_image_declaring_10000_megapixels_is_refused_not_a_500(as_olive):
    response = _training(as_olive, declared_png(100_000, 100_000, name="log.png"))
    assert response.status_code == 400
    assert "The log&#x27;s image has too many pixels to open" in response.content.decode()
    assert not Training.objects.filter(date="2025-06-20").exists()


def test_a_log_over_10_mb_is_refused(as_olive):
    big = SimpleUploadedFile("log.pdf", b"%PDF-" + b"0" * (10 * 1024 * 1024))
    response = _training(as_olive, big)
    assert (
        response.status_code == 400 and "the largest accepted is 10 MB" in response.content.decode()
    )
    assert not Training.objects.filter(date="2025-06-20").exists()


def test_another_establishments_log_answers_404(as_olive, world):
    other = Training.objects.create(establishment=world.grill, code="T-9", date="2025-01-01")
    other.log.save("x.pdf", SimpleUploadedFile("x.pdf", PDF))
    assert as_olive.get(f"/portal/operator/FSE-2/trainings/{other.pk}/log/").status_code == 404
    assert as_olive.get(f"{PIER}trainings/{other.pk}/log/").status_code == 404

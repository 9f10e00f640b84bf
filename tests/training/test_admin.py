import pytest
from django.apps import apps
from django.urls import reverse

from fogkeeper.audit.models import AuditEvent
from tests.admin_forms import change_form_data
from tests.records import make_agency, make_employee, make_establishment, make_training

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", list(apps.get_app_config("training").get_models()))
def test_it_lists_and_searches_every_model(admin_client, model):
    fse = make_establishment(make_agency())
    make_training(fse, "T-1", "2025-02-03", [make_employee(fse, name="Ana")])
    url = reverse(f"admin:training_{model._meta.model_name}_changelist")
    assert admin_client.get(url).status_code == 200
    assert admin_client.get(url, {"q": "ana"}).status_code == 200


def test_it_shows_a_training_with_its_attendance(admin_client):
    fse = make_establishment(make_agency())
    training = make_training(fse, "T-1", "2025-02-03", [make_employee(fse, name="Ana Ruiz")])
    response = admin_client.get(reverse("admin:training_training_change", args=[training.pk]))
    assert "Ana Ruiz" in response.content.decode()


def test_it_audits_an_attendance_added_in_the_admin(admin_client):
    fse = make_establishment(make_agency())
    training = make_training(fse, "T-1", "2025-02-03", [make_employee(fse, code="E-1")])
    ben = make_employee(fse, code="E-2")
    url = reverse("admin:training_training_change", args=[training.pk])
    data = change_form_data(admin_client.get(url))
    data.update({"attendance-TOTAL_FORMS": 2, "attendance-1-employee": ben.pk})
    assert admin_client.post(url, data).status_code == 302
    records = AuditEvent.objects.exclude(object_type="auth.user").order_by("id")
    assert [e.action for e in records] == [
        "training.change",
        "attendance.add",
    ]

import pytest
from django.apps import apps
from django.db.models.fields.files import FieldFile
from django.urls import reverse

from fogkeeper.audit.models import AuditEvent
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


def change_form_data(response) -> dict:
    """What the admin change page would post back unchanged, inlines included."""
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        forms += [inline.formset.management_form, *inline.formset.forms]

    def posted(value) -> bool:  # an empty file field is not posted back
        return value is not None and not (isinstance(value, FieldFile) and not value)

    return {f.html_name: f.value() for form in forms for f in form if posted(f.value())}


def test_it_audits_an_attendance_added_in_the_admin(admin_client):
    fse = make_establishment(make_agency())
    training = make_training(fse, "T-1", "2025-02-03", [make_employee(fse, code="E-1")])
    ben = make_employee(fse, code="E-2")
    url = reverse("admin:training_training_change", args=[training.pk])
    data = change_form_data(admin_client.get(url))
    data.update({"attendance-TOTAL_FORMS": 2, "attendance-1-employee": ben.pk})
    assert admin_client.post(url, data).status_code == 302
    assert [e.action for e in AuditEvent.objects.order_by("id")] == [
        "training.change",
        "attendance.add",
    ]

from hashlib import sha256

import pytest
from django.apps import apps
from django.urls import reverse

from fogkeeper.permits.models import PermitApplication, PermitLetter, PlanReview
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


def test_a_permit_letter_is_read_but_never_added_changed_or_deleted(admin_client):
    permit = make_permit(make_establishment(make_agency()), number="SC-78")
    pdf = b"%PDF-1.4 letter"
    letter = PermitLetter.objects.create(
        permit=permit, kind="permit_modification_notice", pdf=pdf, sha256=sha256(pdf).hexdigest()
    )
    change = reverse("admin:permits_permitletter_change", args=[letter.pk])
    assert admin_client.get(change).status_code == 200
    assert b'name="kind"' not in admin_client.get(change).content  # shown, not a field
    delete = reverse("admin:permits_permitletter_delete", args=[letter.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert admin_client.get(reverse("admin:permits_permitletter_add")).status_code == 403
    assert PermitLetter.objects.filter(pk=letter.pk).exists()


def test_a_plan_reviews_file_is_not_replaced_in_the_admin(admin_client):
    fse = make_establishment(make_agency())
    review = PlanReview.objects.create(
        establishment=fse, submitted_on=d("2028-10-01"), description="Interceptor"
    )
    change = admin_client.get(reverse("admin:permits_planreview_change", args=[review.pk]))
    assert change.status_code == 200 and b'name="document"' not in change.content

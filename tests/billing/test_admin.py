import pytest
from django.urls import reverse

from tests.billing.records import invoice, pay, town_fse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["feeschedule", "invoice", "payment"])
def test_it_lists_billing_records(admin_client, model):
    pay(invoice(town_fse()), "10.00", "2025-03-04")
    assert admin_client.get(reverse(f"admin:billing_{model}_changelist")).status_code == 200


def test_it_shows_an_invoice_but_offers_no_edit(admin_client):
    inv = invoice(town_fse())
    response = admin_client.get(reverse("admin:billing_invoice_change", args=[inv.pk]))
    assert response.status_code == 200
    assert b'name="_save"' not in response.content

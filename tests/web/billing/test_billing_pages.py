"""The money pages: the fee schedule, an establishment's account, issuing an invoice,
recording a payment, voiding and crediting, liens; who may write and who gets 404."""

from decimal import Decimal

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.billing.models import FeeSchedule, Invoice, InvoiceAdjustment, Lien, Payment
from tests.billing.records import invoice, pay, town_fse
from tests.billing.test_liens import penalised
from tests.records import make_agency, make_establishment
from tests.web.people import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def fse():
    return town_fse()


def signed_in(client, fse, role):
    client.force_login(make_user(role, fse.agency, role=role))
    return client


def counts():
    return (
        Invoice.objects.count(),
        Payment.objects.count(),
        InvoiceAdjustment.objects.count(),
        FeeSchedule.objects.count(),
        AuditEvent.objects.count(),
    )


def test_it_shows_the_fee_schedules_by_effective_date(client, fse):
    response = signed_in(client, fse, "clerk").get("/billing/fees/?as_of=2025-03-03")

    assert b"In force from 2024-07-01" in response.content
    assert b"FOG Permit fee" in response.content
    assert b"Set a new fee schedule" not in response.content


def test_a_manager_sets_a_fee_schedule_from_a_date(client, fse):
    data = {
        "rows": "1",
        "effective_on": "2025-07-01",
        "resolution": "Res. 2025-14",
        "code_0": "PERMIT",
        "description_0": "FOG Permit fee",
        "amount_0": "275.00",
        "basis_0": "annual",
        "citation_0": "10.02.360",
    }
    response = signed_in(client, fse, "manager").post("/billing/fees/", data)

    assert response.status_code == 302
    schedule = FeeSchedule.objects.get(effective_on="2025-07-01")
    assert schedule.items.get().amount == Decimal("275.00")


def test_a_fee_without_an_amount_is_refused_on_its_row_and_nothing_is_set(client, fse):
    data = {
        "rows": "1",
        "effective_on": "2025-07-01",
        "code_0": "PERMIT",
        "description_0": "FOG Permit fee",
        "basis_0": "annual",
        "citation_0": "10.02.360",
    }
    client = signed_in(client, fse, "manager")  # the membership is audited as it is made
    before = counts()
    response = client.post("/billing/fees/", data)

    assert response.status_code == 400
    assert "required unless charged at actual cost" in response.content.decode()
    assert counts() == before


def test_a_clerk_may_not_set_the_fee_schedule(client, fse):
    response = signed_in(client, fse, "clerk").post("/billing/fees/", {"rows": "1"})

    assert response.status_code == 403


def test_the_account_shows_invoices_payments_and_the_balance(client, fse):
    pay(invoice(fse), "100.00", "2025-03-05", reference="4471")

    response = signed_in(client, fse, "clerk").get(
        f"/establishments/{fse.code}/account/?as_of=2025-03-10"
    )

    text = response.content.decode()
    assert "Invoice INV-1" in text and "4471" in text
    assert "$150.00 owed" in text
    assert "Issue an invoice" in text


def test_the_account_shows_the_towns_business_licence_block(client, fse):
    invoice(fse, noticed_on="2025-03-03")

    response = signed_in(client, fse, "auditor").get(
        f"/establishments/{fse.code}/account/?as_of=2025-06-30"
    )

    text = response.content.decode()
    assert "Business license not to be renewed" in text
    assert "not issued or renewed until the debt is paid in full" in text
    assert "Issue an invoice" not in text


def test_the_establishment_page_shows_the_block_near_the_permit(client, fse):
    invoice(fse, noticed_on="2025-03-03")

    response = signed_in(client, fse, "inspector").get(
        f"/establishments/{fse.code}/?as_of=2025-06-30"
    )

    assert b"Business license not to be renewed" in response.content
    assert b"Account and invoices" in response.content


def test_a_clerk_issues_an_invoice_with_a_fee_and_a_line(client, fse):
    data = {
        "rows": "1",
        "code": "INV-7",
        "kind": "fee",
        "noticed_on": "2025-03-03",
        "fees": ["PERMIT"],
        "line_description_0": "Reinspection",
        "line_amount_0": "80.00",
        "line_citation_0": "10.02.360",
    }
    response = signed_in(client, fse, "clerk").post(
        f"/establishments/{fse.code}/invoices/new/", data
    )

    assert response.headers["Location"] == f"/establishments/{fse.code}/invoices/INV-7/"
    assert Invoice.objects.get(code="INV-7").total() == Decimal("330.00")


def test_the_invoice_form_offers_the_next_free_number(client, fse):
    invoice(fse, code="INV-4")

    response = signed_in(client, fse, "clerk").get(f"/establishments/{fse.code}/invoices/new/")

    assert b'value="INV-5"' in response.content


def test_a_penalty_invoice_without_its_order_is_refused_and_nothing_is_issued(client, fse):
    data = {
        "rows": "1",
        "code": "INV-7",
        "kind": "penalty",
        "noticed_on": "2025-03-03",
        "line_description_0": "Penalty",
        "line_amount_0": "500.00",
    }
    client = signed_in(client, fse, "clerk")
    before = counts()
    response = client.post(f"/establishments/{fse.code}/invoices/new/", data)

    assert response.status_code == 400
    assert b"A penalty invoice names the penalty order." in response.content
    assert counts() == before


def test_the_penalty_order_of_the_case_page_is_preselected_with_its_amount(client):
    fse = penalised()
    response = signed_in(client, fse, "clerk").get(
        f"/establishments/{fse.code}/invoices/new/?action=PO-1"
    )

    text = response.content.decode()
    assert '<option value="PO-1" selected>' in text
    assert 'value="2000"' in text or 'value="2000.00"' in text


def test_a_clerk_records_a_partial_payment(client, fse):
    inv = invoice(fse)
    data = {
        "action": "payment",
        "payment-paid_on": "2025-03-05",
        "payment-amount": "100.00",
        "payment-method": "check",
        "payment-reference": "1001",
    }
    response = signed_in(client, fse, "clerk").post(
        f"/establishments/{fse.code}/invoices/{inv.code}/", data
    )

    assert response.status_code == 302
    assert inv.payments.get().amount == Decimal("100.00")


def test_an_overpayment_is_refused_with_the_services_message(client, fse):
    inv = invoice(fse)
    data = {
        "action": "payment",
        "payment-paid_on": "2025-03-05",
        "payment-amount": "250.01",
        "payment-method": "check",
    }
    client = signed_in(client, fse, "clerk")
    before = counts()
    response = client.post(f"/establishments/{fse.code}/invoices/{inv.code}/", data)

    assert response.status_code == 400
    assert "$250.01 is more than the $250.00 still owed" in response.content.decode()
    assert counts() == before


def test_a_manager_voids_an_invoice(client, fse):
    inv = invoice(fse)
    data = {"action": "void", "void-on": "2025-03-05", "void-reason": "Issued in error"}
    signed_in(client, fse, "manager").post(f"/establishments/{fse.code}/invoices/{inv.code}/", data)

    assert inv.adjustments.get().kind == "void"


def test_an_inspector_may_read_an_invoice_but_not_pay_void_or_credit_it(client, fse):
    inv = invoice(fse)
    client = signed_in(client, fse, "inspector")
    url = f"/establishments/{fse.code}/invoices/{inv.code}/"

    assert client.get(url).status_code == 200
    for action in ("payment", "void", "credit"):
        assert client.post(url, {"action": action}).status_code == 403
    assert client.get(f"/establishments/{fse.code}/invoices/new/").status_code == 403


def test_another_agencys_invoice_and_account_answer_404(client, fse):
    inv = invoice(fse)
    sc = make_agency("san-clemente")
    make_establishment(sc, code="FSE-9")
    client.force_login(make_user("outsider", sc, role="manager"))

    assert client.get(f"/establishments/{fse.code}/account/").status_code == 404
    assert client.get(f"/establishments/{fse.code}/invoices/{inv.code}/").status_code == 404
    assert client.post(f"/establishments/{fse.code}/invoices/{inv.code}/", {}).status_code == 404


def test_a_clerk_records_a_lien_and_its_release(client):
    fse = penalised()
    client = signed_in(client, fse, "clerk")
    data = {
        "penalty_order": "PO-1",
        "recorded_on": "2025-09-11",
        "amount": "2000.00",
        "document_number": "2025-0012345",
    }
    assert client.post(f"/establishments/{fse.code}/liens/new/", data).status_code == 302
    lien = Lien.objects.get()

    response = client.post(
        f"/establishments/{fse.code}/liens/{lien.pk}/release/",
        {"released_on": "2025-10-01", "document_number": "2025-0023456"},
    )

    assert response.status_code == 302
    assert Lien.objects.get().release.document_number == "2025-0023456"


def test_a_lien_before_it_is_eligible_is_refused_on_the_page(client):
    fse = penalised()
    data = {
        "penalty_order": "PO-1",
        "recorded_on": "2025-09-10",
        "amount": "2000.00",
        "document_number": "2025-0012345",
    }
    response = signed_in(client, fse, "clerk").post(f"/establishments/{fse.code}/liens/new/", data)

    assert response.status_code == 400
    assert "on or after 2025-09-11 (13.30.080(I)(9))" in response.content.decode()
    assert Lien.objects.count() == 0


def test_the_invoice_page_offers_the_bill_as_a_pdf(client, fse):
    invoice(fse)
    client = signed_in(client, fse, "clerk")
    html = client.get("/establishments/T-1/invoices/INV-1/?as_of=2025-03-10").content.decode()
    assert "Download the invoice (PDF)" in html
    response = client.get("/establishments/T-1/invoices/INV-1/invoice.pdf")
    assert response.status_code == 200 and response.content.startswith(b"%PDF")

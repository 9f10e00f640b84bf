"""A void or a credit of an invoice is a new record, never an edit: what is owed is the lines
less payments less voids and credits, everywhere it is computed."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.billing.casefiles import invoice_actions
from fogkeeper.billing.models import InvoiceAdjustment, Payment
from fogkeeper.billing.selectors import (
    account_balance,
    account_statement,
    delinquent_invoices,
    invoice_balance,
)
from fogkeeper.billing.services import invoice_credit, invoice_void
from tests.records import d

from .records import invoice, pay, town_fse

pytestmark = pytest.mark.django_db


def counts():
    return InvoiceAdjustment.objects.count(), Payment.objects.count(), AuditEvent.objects.count()


def refused(call, **kw) -> dict:
    before = counts()
    with pytest.raises(ValidationError) as e:
        call(**kw)
    assert counts() == before
    return e.value.message_dict


def test_it_credits_part_of_an_invoice_as_a_new_record():
    inv = invoice(town_fse())
    invoice_credit(invoice=inv, on=d("2025-03-10"), amount=Decimal("50.00"), reason="Pro rata")

    assert invoice_balance(inv, d("2025-03-09")) == Decimal("250.00")
    assert invoice_balance(inv, d("2025-03-10")) == Decimal("200.00")
    assert AuditEvent.objects.filter(action="invoice.credit").count() == 1


def test_it_refuses_a_credit_above_what_is_still_owed():
    inv = invoice(town_fse())
    pay(inv, "200.00", "2025-03-05")

    errors = refused(
        invoice_credit, invoice=inv, on=d("2025-03-10"), amount=Decimal("50.01"), reason="x"
    )
    assert errors["amount"] == [
        "$50.01 is more than the $50.00 still owed on Invoice INV-1: a credit may not exceed "
        "what is owed."
    ]


def test_a_void_credits_what_is_still_owed():
    fse = town_fse()
    inv = invoice(fse)
    pay(inv, "100.00", "2025-03-05")

    void = invoice_void(invoice=inv, on=d("2025-03-12"), reason="Issued in error")

    assert void.amount == Decimal("150.00")
    assert account_balance(fse, d("2025-03-12")) == Decimal("0.00")
    assert [line.kind for line in account_statement(fse, d("2025-03-31"))] == [
        "invoice",
        "payment",
        "void",
    ]


def test_nothing_is_recorded_on_an_invoice_after_its_void():
    inv = invoice(town_fse())
    invoice_void(invoice=inv, on=d("2025-03-12"), reason="Issued in error")

    assert "invoice" in refused(invoice_void, invoice=inv, on=d("2025-03-13"), reason="again")
    assert "invoice" in refused(
        invoice_credit, invoice=inv, on=d("2025-03-13"), amount=Decimal("1.00"), reason="x"
    )


def test_a_payment_on_a_void_invoice_is_refused():
    from fogkeeper.billing.services import payment_record

    inv = invoice(town_fse())
    invoice_credit(invoice=inv, on=d("2025-03-10"), amount=Decimal("10.00"), reason="Goodwill")
    invoice_void(invoice=inv, on=d("2025-03-12"), reason="Issued in error")

    errors = refused(
        payment_record,
        invoice=inv,
        paid_on=d("2025-03-13"),
        amount=Decimal("1.00"),
        method="check",
    )
    assert errors["amount"] == ["Invoice INV-1 is void: nothing is paid on it."]


def test_a_payment_above_what_is_owed_after_a_credit_is_refused():
    inv = invoice(town_fse())
    invoice_credit(invoice=inv, on=d("2025-03-10"), amount=Decimal("50.00"), reason="Pro rata")

    with pytest.raises(ValidationError, match=r"more than the \$200.00 still owed"):
        pay(inv, "200.01", "2025-03-11")


def test_a_void_or_credit_needs_a_reason_and_a_date_not_before_the_notice():
    inv = invoice(town_fse())

    errors = refused(invoice_void, invoice=inv, on=d("2025-03-02"), reason=" ")

    assert errors["reason"] == ["Say why: the reason is kept with the invoice."]
    assert errors["on"] == ["2025-03-02 is before the notice of Invoice INV-1 (2025-03-03)."]


def test_the_engine_sees_a_credited_invoice_as_settled_on_the_day_of_the_credit():
    fse = town_fse()
    inv = invoice(fse)
    pay(inv, "200.00", "2025-03-05")
    invoice_credit(invoice=inv, on=d("2025-03-20"), amount=Decimal("50.00"), reason="Pro rata")

    [action] = invoice_actions([fse.pk], d("2025-06-30"))[fse.pk]
    assert action["paid_on"] == "2025-03-20"


def test_a_voided_invoice_is_not_delinquent_after_its_void():
    fse = town_fse()
    inv = invoice(fse, noticed_on="2025-03-03")
    assert [x.invoice for x in delinquent_invoices(fse, d("2025-06-30"))] == ["INV-1"]

    invoice_void(invoice=inv, on=d("2025-07-01"), reason="Waived by the FOG Manager")

    assert delinquent_invoices(fse, d("2025-07-01")) == []


def test_an_adjustment_is_never_edited_or_deleted():
    inv = invoice(town_fse())
    credit = invoice_credit(invoice=inv, on=d("2025-03-10"), amount=Decimal("5.00"), reason="x")

    with pytest.raises(ValueError, match="never changed"):
        credit.save()
    with pytest.raises(ValueError, match="never deleted"):
        credit.delete()

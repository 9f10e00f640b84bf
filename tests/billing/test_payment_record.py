from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.billing.models import Payment
from fogkeeper.billing.selectors import invoice_balance
from tests.billing.records import invoice, pay, town_fse
from tests.records import d

pytestmark = pytest.mark.django_db


def test_it_records_a_partial_payment():
    inv = invoice(town_fse())
    pay(inv, "100.00", "2025-03-10")
    assert invoice_balance(inv, d("2025-03-10")) == Decimal("150.00")


def test_it_records_the_payment_that_settles_the_invoice():
    inv = invoice(town_fse())
    pay(inv, "100.00", "2025-03-10")
    pay(inv, "150.00", "2025-03-20", reference="CHK 1042")
    assert invoice_balance(inv, d("2025-03-20")) == Decimal("0.00")
    assert AuditEvent.objects.filter(action="payment.record").count() == 2


def test_it_refuses_an_overpayment_and_changes_nothing():
    inv = invoice(town_fse())
    pay(inv, "200.00", "2025-03-10")
    events = AuditEvent.objects.count()
    with pytest.raises(ValidationError) as e:
        pay(inv, "50.01", "2025-03-11")
    assert "overpayment" in e.value.message_dict["amount"][0]
    assert Payment.objects.count() == 1
    assert AuditEvent.objects.count() == events


def test_it_refuses_a_payment_before_the_notice():
    with pytest.raises(ValidationError) as e:
        pay(invoice(town_fse()), "10.00", "2025-03-02")
    assert "paid_on" in e.value.message_dict

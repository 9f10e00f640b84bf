from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.billing.models import Invoice
from fogkeeper.billing.selectors import account_balance, invoice_due_on
from tests.billing.records import invoice, pay, town_fse
from tests.records import d, make_incident

pytestmark = pytest.mark.django_db


def test_it_invoices_the_fees_in_force_on_the_notice_date():
    inv = invoice(town_fse(), fees=["PERMIT", "SPECIALTY"])
    lines = [(li.description, li.amount, li.citation) for li in inv.lines.all()]
    assert lines == [
        ("FOG Permit fee", Decimal("250.00"), "10.02.360"),
        ("Specialty FOG Compliance Charge", Decimal("120.50"), "10.02.360"),
    ]
    assert inv.total() == Decimal("370.50")


def test_it_audits_the_invoice_with_its_lines():
    inv = invoice(town_fse())
    (event,) = AuditEvent.objects.filter(action="invoice.issue")
    assert event.object_id == str(inv.pk)
    assert event.after["lines"][0]["amount"] == "250.00"


def test_it_refuses_a_fee_charged_at_actual_cost_without_an_amount():
    with pytest.raises(ValidationError) as e:
        invoice(town_fse(), fees=["CLEANUP"])
    assert "fees[0]" in e.value.message_dict
    assert not Invoice.objects.exists()


def test_it_refuses_a_float_line():
    with pytest.raises(ValidationError) as e:
        invoice(town_fse(), lines=[{"description": "Follow-up", "amount": 0.1}])
    assert "lines[0]" in e.value.message_dict


def test_it_refuses_a_code_used_before_by_the_agency():
    fse = town_fse()
    invoice(fse)
    with pytest.raises(ValidationError) as e:
        invoice(fse, noticed_on="2025-04-01")
    assert "code" in e.value.message_dict


def test_it_adds_cents_exactly():
    fse = town_fse()
    inv = invoice(
        fse,
        kind="noncompliance",
        lines=[
            {"description": "Notice preparation", "amount": Decimal("0.10")},
            {"description": "Postage", "amount": Decimal("0.20")},
        ],
    )
    assert inv.total() == Decimal("0.30")
    pay(inv, "0.10", "2025-03-04")
    pay(inv, "0.20", "2025-03-05")
    assert account_balance(fse, d("2025-03-05")) == Decimal("0.00")


def test_it_makes_a_cost_recovery_invoice_due_45_days_after_notice_rolled_past_a_holiday():
    fse = town_fse()
    sso = make_incident(fse, "SSO-1", "2025-05-01", attributed=True)
    inv = invoice(
        fse,
        kind="cost_recovery",
        noticed_on="2025-05-20",
        incident=sso,
        lines=[{"description": "Main line cleaning", "amount": Decimal("1840.00")}],
    )
    # 2025-07-04 is Independence Day (a Friday): the deadline rolls to Monday.
    assert invoice_due_on(inv) == d("2025-07-07")


def test_it_refuses_a_cost_recovery_invoice_without_its_incident():
    with pytest.raises(ValidationError) as e:
        invoice(
            town_fse(),
            kind="cost_recovery",
            lines=[{"description": "Cleanup", "amount": Decimal("10.00")}],
        )
    assert "incident" in e.value.message_dict


def test_it_refuses_a_penalty_invoice_without_its_penalty_order():
    with pytest.raises(ValidationError) as e:
        invoice(town_fse(), kind="penalty", lines=[{"description": "x", "amount": Decimal("5")}])
    assert "enforcement_action" in e.value.message_dict

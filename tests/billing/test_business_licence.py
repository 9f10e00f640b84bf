from decimal import Decimal

import pytest

from fogkeeper.billing.selectors import business_licence_renewal_blocked, delinquent_invoices
from fogkeeper.billing.services import fee_schedule_set, invoice_issue
from tests.billing.records import invoice, pay, town_fse
from tests.records import d, make_agency, make_establishment, make_incident

pytestmark = pytest.mark.django_db


def test_it_does_not_block_the_renewal_through_the_last_day_to_pay():
    fse = town_fse()
    invoice(fse)
    assert not business_licence_renewal_blocked(fse, d("2025-04-17"))


def test_it_blocks_the_renewal_while_an_invoice_is_delinquent():
    fse = town_fse()
    invoice(fse)
    block = business_licence_renewal_blocked(fse, d("2025-04-18"))
    assert block
    assert block.invoices == ("INV-1",)
    assert "10.02.360" in block.reason and "INV-1" in block.reason


def test_it_lifts_the_block_once_paid_in_full():
    fse = town_fse()
    inv = invoice(fse)
    pay(inv, "200.00", "2025-05-01")
    assert business_licence_renewal_blocked(fse, d("2025-05-01"))
    pay(inv, "50.00", "2025-05-02")
    assert not business_licence_renewal_blocked(fse, d("2025-05-02"))


def test_it_does_not_block_for_an_invoice_paid_on_the_deadline():
    fse = town_fse()
    pay(invoice(fse), "250.00", "2025-04-17")
    assert not business_licence_renewal_blocked(fse, d("2025-06-01"))


def test_it_reports_a_cost_recovery_invoice_delinquent_after_its_deadline():
    fse = town_fse()
    sso = make_incident(fse, "SSO-1", "2025-05-01", attributed=True)
    invoice(
        fse,
        kind="cost_recovery",
        noticed_on="2025-05-20",
        incident=sso,
        lines=[{"description": "Cleanup", "amount": Decimal("900.00")}],
    )
    assert delinquent_invoices(fse, d("2025-07-07")) == []
    (late,) = delinquent_invoices(fse, d("2025-07-08"))
    assert (late.invoice, late.due, late.since) == ("INV-1", d("2025-07-07"), d("2025-07-08"))


def test_san_clemente_sets_no_payment_deadline_so_nothing_blocks():
    agency = make_agency("san-clemente")
    item = {"code": "RGI", "description": "Restaurant Grease Inspection fee"}
    fee_schedule_set(
        agency=agency,
        effective_on=d("2024-07-01"),
        items=[{**item, "amount": Decimal("150"), "basis": "annual", "citation": "13.30.050(M)"}],
    )
    fse = make_establishment(agency)
    invoice_issue(
        establishment=fse, code="SC-1", kind="fee", noticed_on=d("2025-01-06"), fees=["RGI"]
    )
    assert not business_licence_renewal_blocked(fse, d("2026-01-06"))

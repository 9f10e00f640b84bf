from decimal import Decimal

import pytest

from fogkeeper.billing.selectors import (
    account,
    account_balance,
    account_invoices,
    account_statement,
)
from fogkeeper.billing.services import invoice_credit
from tests.billing.records import invoice, pay, town_fse
from tests.records import d

pytestmark = pytest.mark.django_db


@pytest.fixture
def fse():
    fse = town_fse()
    first = invoice(fse, "INV-1", "2025-03-03")  # 250.00
    pay(first, "100.00", "2025-03-10", reference="CHK 1")
    invoice(fse, "INV-2", "2025-03-10", fees=["SPECIALTY"])  # 120.50
    pay(first, "150.00", "2025-04-01")
    return fse


def test_it_lists_invoices_and_payments_with_the_running_balance(fse):
    rows = [
        (line.date, line.kind, line.invoice, line.charge, line.credit, line.balance)
        for line in account_statement(fse, d("2025-04-01"))
    ]
    assert rows == [
        (d("2025-03-03"), "invoice", "INV-1", Decimal("250.00"), 0, Decimal("250.00")),
        (d("2025-03-10"), "invoice", "INV-2", Decimal("120.50"), 0, Decimal("370.50")),
        (d("2025-03-10"), "payment", "INV-1", 0, Decimal("100.00"), Decimal("270.50")),
        (d("2025-04-01"), "payment", "INV-1", 0, Decimal("150.00"), Decimal("120.50")),
    ]


def test_it_shows_the_due_date_of_each_invoice(fse):
    first = account_statement(fse, d("2025-04-01"))[0]
    assert first.due_on == d("2025-04-17")


def test_it_leaves_out_what_happened_after_the_date(fse):
    assert [line.kind for line in account_statement(fse, d("2025-03-09"))] == ["invoice"]
    assert account_balance(fse, d("2025-03-09")) == Decimal("250.00")


def test_it_balances_to_the_last_line_of_the_statement(fse):
    assert account_balance(fse, d("2025-04-01")) == Decimal("120.50")


def test_the_account_in_one_read_gives_what_each_read_gives(fse, django_assert_max_num_queries):
    second = fse.invoices.get(code="INV-2")
    invoice_credit(invoice=second, on=d("2025-03-20"), amount=Decimal("20.50"), reason="waived")
    pay(second, "10.00", "2025-05-02")  # after the day: owed, not in the balance
    invoice(fse, "INV-3", "2025-05-01")  # after the day: not listed
    on = d("2025-04-01")
    with django_assert_max_num_queries(4):  # the invoices, their lines, payments, adjustments
        found = account(fse, on)
    assert found.statement == account_statement(fse, on)
    assert found.balance == account_balance(fse, on) == Decimal("100.00")
    assert found.invoices == account_invoices(fse, on)
    assert [(r["invoice"].code, r["balance"], r["owed"]) for r in found.invoices] == [
        ("INV-2", Decimal("100.00"), Decimal("90.00")),
        ("INV-1", Decimal("0.00"), Decimal("0.00")),
    ]

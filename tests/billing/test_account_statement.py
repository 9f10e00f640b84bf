from decimal import Decimal

import pytest

from fogkeeper.billing.selectors import account_balance, account_statement
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

"""A Council order deciding the appeal of a Manager's penalty order replaces it (RULES.md
12.8, 13.30.080(I)(6)-(7)): the order appealed is never final, is not invoiced and gets no
lien; the Council's order is final on issuance, invoiced and made a lien in its place."""

from decimal import Decimal

import pytest

from fogkeeper.billing.models import Invoice, Lien
from fogkeeper.billing.selectors import lien_eligibility, penalty_orders
from fogkeeper.billing.services import invoice_issue, lien_record
from fogkeeper.enforcement.services import action_take, appeal_file
from tests.enforcement.steps import deadlines, heard_complaint, open_case, refused
from tests.records import d

pytestmark = pytest.mark.django_db


def order(case, code, by, amount, issued_on, served_on, refers_to=None):
    refers_to = refers_to or heard_complaint(case)
    return action_take(
        case=case,
        type="penalty_order",
        code=code,
        refers_to=refers_to,
        fields={
            "issued_by": by,
            "issued_on": d(issued_on),
            "served_on": d(served_on),
            "amount": Decimal(amount),
            "class": "records",
            "days": 5,
        },
    )


def cut_on_appeal():
    """The Manager's $5,000 order PO-1, appealed in time and cut to $2,000 by the Council's
    order PO-2 of 2025-08-01."""
    fse, case, _ = open_case()
    manager = order(case, "PO-1", "manager", "5000", "2025-07-01", "2025-07-02")
    appeal = appeal_file(appealed=manager, code="A-1", filed_on=d("2025-07-10"), to="council")
    council = order(case, "PO-2", "council", "2000", "2025-08-01", "2025-08-01", refers_to=appeal)
    return fse, manager, council


def test_the_councils_order_names_the_order_it_decides_on_appeal():
    _, _, council = cut_on_appeal()

    assert council.fields["appeal_of"] == "PO-1"


def test_the_order_appealed_has_no_final_or_lien_date_once_replaced():
    fse, _, _ = cut_on_appeal()

    found = deadlines(fse, "2025-12-31")

    assert ("PO-1", "final", "event") not in found
    assert ("PO-1", "lien_eligible", "event") not in found
    assert found[("PO-2", "final", "event")] == "2025-08-01"
    assert found[("PO-2", "lien_eligible", "event")] == "2025-09-30"


def test_only_the_councils_order_is_offered_for_an_invoice():
    fse, _, _ = cut_on_appeal()

    assert [o.code for o in penalty_orders(fse)] == ["PO-2"]


def test_it_refuses_to_invoice_the_order_replaced_and_stores_nothing():
    fse, _, _ = cut_on_appeal()

    with pytest.raises(Exception) as e:
        invoice_issue(
            establishment=fse,
            code="INV-1",
            kind="penalty",
            noticed_on=d("2025-08-05"),
            enforcement_action="PO-1",
            lines=[{"description": "Penalty PO-1", "amount": Decimal("5000.00")}],
        )

    assert "PO-1 was replaced by the order that decided its appeal" in str(e.value)
    assert Invoice.objects.count() == 0


def test_it_refuses_a_lien_for_the_order_replaced_and_records_one_for_the_councils():
    fse, _, _ = cut_on_appeal()

    message = refused(
        lien_record,
        establishment=fse,
        recorded_on=d("2025-10-01"),
        amount=Decimal("5000"),
        document_number="2025-1",
        penalty_order="PO-1",
    )
    lien_record(
        establishment=fse,
        recorded_on=d("2025-10-01"),
        amount=Decimal("2000"),
        document_number="2025-2",
        penalty_order="PO-2",
    )

    assert "PO-1 is not eligible for a lien" in message
    assert lien_eligibility(fse, "PO-1", d("2025-10-01")).on is None
    assert list(Lien.objects.values_list("enforcement_action", "amount")) == [
        ("PO-2", Decimal("2000.00"))
    ]


def test_it_refuses_an_appeal_of_named_by_hand_that_is_not_the_order_appealed():
    _, case, _ = open_case()
    order(case, "PO-1", "manager", "5000", "2025-07-01", "2025-07-02")

    message = refused(
        action_take,
        case=case,
        type="penalty_order",
        code="PO-2",
        refers_to=heard_complaint(case),
        fields={
            "issued_by": "manager",
            "issued_on": d("2025-08-01"),
            "served_on": d("2025-08-01"),
            "amount": Decimal("100"),
            "class": "records",
            "days": 1,
            "appeal_of": "PO-1",
        },
    )

    assert "appeal_of is the order whose appeal this order decides, not PO-1" in message

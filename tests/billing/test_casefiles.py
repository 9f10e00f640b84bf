from decimal import Decimal

import pytest

from fogkeeper.billing.casefiles import invoice_actions, penalties_paid_on
from fogkeeper.rules import evaluate, parse_case
from tests.billing.records import invoice, pay, town_fse
from tests.records import d, make_establishment

pytestmark = pytest.mark.django_db


def test_it_lists_invoices_as_engine_actions_with_the_day_paid_in_full():
    fse = town_fse()
    first = invoice(fse, "INV-1")
    pay(first, "100.00", "2025-03-10")
    pay(first, "150.00", "2025-04-17")
    invoice(fse, "INV-2", "2025-03-05", fees=["SPECIALTY"])
    assert invoice_actions([fse.pk], d("2025-04-30")) == {
        fse.pk: [
            {
                "id": "INV-1",
                "type": "invoice",
                "noticed_on": "2025-03-03",
                "amount": 250.0,
                "paid_on": "2025-04-17",
            },
            {"id": "INV-2", "type": "invoice", "noticed_on": "2025-03-05", "amount": 120.5},
        ]
    }


def test_it_leaves_out_paid_on_when_paid_in_full_only_after_the_date():
    fse = town_fse()
    pay(invoice(fse), "250.00", "2025-05-01")
    (action,) = invoice_actions([fse.pk], d("2025-04-30"))[fse.pk]
    assert "paid_on" not in action


def test_it_reads_any_number_of_establishments_in_two_queries(django_assert_num_queries):
    fse = town_fse()
    other = make_establishment(fse.agency, code="T-2")
    pay(invoice(fse), "250.00", "2025-03-04")
    invoice(other, "INV-2")
    with django_assert_num_queries(2):
        actions = invoice_actions([fse.pk, other.pk], d("2025-04-30"))
    assert [len(actions[fse.pk]), len(actions[other.pk])] == [1, 1]


def test_it_gives_the_day_a_penalty_order_was_paid_in_full():
    fse = town_fse()
    lines = [{"description": "Administrative penalty", "amount": Decimal("500.00")}]
    penalty = invoice(fse, "PEN-1", kind="penalty", enforcement_action="A-7", lines=lines)
    pay(penalty, "500.00", "2025-04-02")
    assert penalties_paid_on([fse.pk], d("2025-04-30")) == {fse.pk: {"A-7": "2025-04-02"}}


def town_case(paid_on: str | None) -> dict:
    action = {"id": "INV-1", "type": "invoice", "noticed_on": "2025-03-03", "amount": 250.0}
    if paid_on:
        action["paid_on"] = paid_on
    return {
        "jurisdiction": "town-10-02",
        "establishment": {
            "id": "T-1",
            "opened_on": "2020-01-01",
            "operator": {"name": "Pier Foods LLC", "since": "2020-01-01"},
        },
        "enforcement": [action],
    }


def delinquent(case: dict, as_of: str) -> list:
    report = evaluate(parse_case(case, as_of=d(as_of)))
    return [f.subject for f in report.findings if f.rule == "fees.delinquent" and f.open]


def test_the_engine_finds_a_town_invoice_unpaid_after_45_days_delinquent():
    assert delinquent(town_case(None), "2025-04-18") == ["INV-1"]


def test_the_engine_does_not_find_it_delinquent_on_the_last_day_to_pay():
    assert delinquent(town_case(None), "2025-04-17") == []


def test_the_engine_does_not_find_an_invoice_paid_on_the_deadline_delinquent():
    assert delinquent(town_case("2025-04-17"), "2025-06-01") == []


def test_the_engine_reads_the_actions_billing_builds():
    fse = town_fse()
    pay(invoice(fse), "250.00", "2025-04-17")
    case = {**town_case(None), "enforcement": invoice_actions([fse.pk], d("2025-06-01"))[fse.pk]}
    assert delinquent(case, "2025-06-01") == []

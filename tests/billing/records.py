"""Money records for billing tests: a Town establishment with a fee schedule."""

from __future__ import annotations

from decimal import Decimal

from fogkeeper.billing.services import fee_schedule_set, invoice_issue, payment_record
from tests.records import d, make_agency, make_establishment

TOWN_FEES = [
    {
        "code": "PERMIT",
        "description": "FOG Permit fee",
        "amount": Decimal("250.00"),
        "basis": "annual",
        "citation": "10.02.360",
    },
    {
        "code": "SPECIALTY",
        "description": "Specialty FOG Compliance Charge",
        "amount": Decimal("120.50"),
        "basis": "annual",
        "citation": "10.02.360",
    },
    {
        "code": "CLEANUP",
        "description": "Overflow cleanup at actual cost",
        "amount": None,
        "basis": "actual_cost",
        "citation": "10.02.280",
    },
]


def town_fse(code: str = "T-1"):
    agency = make_agency("town-10-02", code="town", name="Town")
    fee_schedule_set(agency=agency, effective_on=d("2024-07-01"), items=TOWN_FEES)
    return make_establishment(agency, code=code, opened_on="2020-01-01")


def invoice(fse, code: str = "INV-1", noticed_on: str = "2025-03-03", **kw):
    kw.setdefault("kind", "fee")
    if "lines" not in kw:
        kw.setdefault("fees", ["PERMIT"])
    return invoice_issue(establishment=fse, code=code, noticed_on=d(noticed_on), **kw)


def pay(inv, amount: str, paid_on: str, method: str = "check", **kw):
    return payment_record(
        invoice=inv, paid_on=d(paid_on), amount=Decimal(amount), method=method, **kw
    )

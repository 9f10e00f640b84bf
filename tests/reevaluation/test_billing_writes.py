"""Each write service of billing (an invoice issued, paid, voided or credited; a lien recorded
or released) evaluates the establishment it changed again as it commits; a run of annual fees,
the establishments it invoiced together in one batch."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from fogkeeper import reevaluation
from fogkeeper.billing.annual import invoice_annual_fees
from fogkeeper.billing.annual_runs import start_annual_fees
from fogkeeper.billing.services import (
    fee_schedule_set,
    invoice_credit,
    invoice_issue,
    invoice_void,
    lien_record,
    lien_release,
    payment_record,
)
from fogkeeper.enforcement.services import action_take, case_open
from tests.billing.test_annual_fees import SC_FEES
from tests.enforcement.steps import heard_complaint
from tests.records import d, make_agency, make_establishment
from tests.reevaluation import assert_evaluated_again, check_write, forget_evaluation

pytestmark = pytest.mark.django_db


def _fee(fse):
    return invoice_issue(
        establishment=fse,
        code="INV-F1",
        kind="fee",
        noticed_on=date(2025, 9, 1),
        lines=[{"description": "FOG Permit fee", "amount": Decimal("428.00")}],
    )


def _lien(fse):
    """A lien for the manager's $2,000 penalty order PO-1, served 2025-07-02 (a lien from
    2025-09-11)."""
    case = case_open(establishment=fse, code="EC-1", opened_on=d("2025-03-01"))
    action_take(
        case=case,
        type="penalty_order",
        code="PO-1",
        refers_to=heard_complaint(case),
        fields={
            "issued_by": "manager",
            "issued_on": d("2025-07-01"),
            "served_on": d("2025-07-02"),
            "amount": Decimal("2000"),
            "class": "records",
            "days": 1,
        },
    )
    return lien_record(
        establishment=fse,
        recorded_on=d("2025-09-11"),
        amount=Decimal("2000"),
        document_number="2025-0012345",
        penalty_order="PO-1",
    )


WRITES = {
    invoice_issue: lambda fse: lambda: _fee(fse),
    payment_record: lambda fse: (
        lambda: payment_record(
            invoice=_fee(fse), paid_on=date(2025, 9, 15), amount=Decimal("428.00"), method="check"
        )
    ),
    invoice_void: lambda fse: (
        lambda: invoice_void(invoice=_fee(fse), on=date(2025, 9, 2), reason="Issued in error")
    ),
    invoice_credit: lambda fse: (
        lambda: invoice_credit(
            invoice=_fee(fse), on=date(2025, 9, 2), amount=Decimal("28.00"), reason="Pro rata"
        )
    ),
    lien_record: lambda fse: lambda: _lien(fse),
    lien_release: lambda fse: (
        lambda: lien_release(
            lien=_lien(fse), released_on=d("2025-10-01"), document_number="2025-0023456"
        )
    ),
}


@pytest.mark.parametrize("service", list(WRITES), ids=[f.__name__ for f in WRITES])
def test_the_write_evaluates_its_establishment_again_as_it_commits(service):
    check_write(WRITES[service])


@pytest.mark.parametrize("run", [invoice_annual_fees, start_annual_fees], ids=lambda f: f.__name__)
def test_a_run_of_annual_fees_evaluates_those_it_invoiced_again_in_one_batch(run, monkeypatch):
    agency = make_agency()
    fee_schedule_set(agency=agency, effective_on=d("2024-07-01"), items=SC_FEES)
    fses = [make_establishment(agency, code=f"FSE-{n}", operator=f"Op {n}") for n in (1, 2)]
    forget_evaluation(*fses)
    asked = []
    real = reevaluation.queue.reevaluate
    monkeypatch.setattr(
        reevaluation.queue, "reevaluate", lambda *a, **kw: asked.append(a) or real(*a, **kw)
    )

    run(agency=agency, year=2025, on=date(2025, 3, 3))

    assert asked == [(agency.pk, {fse.pk for fse in fses})]
    for fse in fses:
        assert_evaluated_again(fse)

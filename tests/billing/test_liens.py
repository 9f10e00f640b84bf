"""A lien for an unpaid penalty: only from the engine's lien-eligible date (San Clemente
13.30.080(I)(9)), only while something is owed, and its release as a new record."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.billing.models import Lien, LienRelease
from fogkeeper.billing.selectors import lien_eligibility
from fogkeeper.billing.services import invoice_issue, lien_record, lien_release, payment_record
from fogkeeper.enforcement.services import action_take
from tests.enforcement.steps import heard_complaint, open_case
from tests.records import d

pytestmark = pytest.mark.django_db


def penalised():
    """San Clemente establishment FSE-1 with the manager's penalty order PO-1 of $2,000,
    served 2025-07-02: final 2025-07-13, a lien from 2025-09-11."""
    fse, case, _ = open_case()
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
    return fse


def record(fse, on="2025-09-11", amount="2000.00", **kw):
    kw.setdefault("penalty_order", "PO-1")
    return lien_record(
        establishment=fse,
        recorded_on=d(on),
        amount=Decimal(amount),
        document_number=kw.pop("document_number", "2025-0012345"),
        **kw,
    )


def counts():
    return Lien.objects.count(), LienRelease.objects.count(), AuditEvent.objects.count()


def refused(call, *args, **kw) -> dict:
    before = counts()
    with pytest.raises(ValidationError) as e:
        call(*args, **kw)
    assert counts() == before
    return e.value.message_dict


def test_the_engine_makes_an_unpaid_penalty_eligible_for_a_lien_60_days_after_final():
    eligible = lien_eligibility(penalised(), "PO-1", d("2025-08-01"))

    assert (eligible.on, eligible.citation) == (d("2025-09-11"), "13.30.080(I)(9)")


def test_it_records_a_lien_on_the_day_it_becomes_eligible():
    lien = record(penalised())

    assert (lien.enforcement_action, lien.amount) == ("PO-1", Decimal("2000.00"))
    assert AuditEvent.objects.filter(action="lien.record").count() == 1


def test_it_refuses_a_lien_the_day_before_it_is_eligible_citing_the_section():
    errors = refused(record, penalised(), on="2025-09-10")

    assert errors["recorded_on"] == [
        "A lien for PO-1 may be recorded on or after 2025-09-11 (13.30.080(I)(9)), not on "
        "2025-09-10."
    ]


def test_it_refuses_a_lien_when_the_penalty_invoice_is_paid():
    fse = penalised()
    inv = invoice_issue(
        establishment=fse,
        code="INV-9",
        kind="penalty",
        noticed_on=d("2025-07-01"),
        enforcement_action="PO-1",
        lines=[{"description": "Penalty PO-1", "amount": Decimal("2000.00")}],
    )
    payment_record(invoice=inv, paid_on=d("2025-08-01"), amount=Decimal("2000.00"), method="check")

    errors = refused(record, fse, invoice=inv, penalty_order="")

    assert errors["amount"] == ["Nothing is owed on PO-1 on 2025-09-11: no lien (13.30.080(I)(9))."]


def test_it_refuses_a_lien_above_what_is_owed_and_a_second_one_unreleased():
    fse = penalised()
    assert refused(record, fse, amount="2000.01")["amount"] == [
        "$2000.01 is more than the $2000.00 owed on PO-1."
    ]
    record(fse)
    errors = refused(record, fse, on="2025-09-12", document_number="2025-0099999")
    assert errors["penalty_order"] == ["Lien 2025-0012345 for PO-1 is recorded and not released."]


def test_it_releases_a_lien_as_a_new_record_once():
    lien = record(penalised())

    lien_release(lien=lien, released_on=d("2025-10-01"), document_number="2025-0023456")

    assert lien.release.document_number == "2025-0023456"
    errors = refused(
        lien_release, lien=lien, released_on=d("2025-10-02"), document_number="2025-0034567"
    )
    assert errors["lien"] == ["Lien 2025-0012345 for PO-1 is released already."]


def test_a_release_is_not_dated_before_the_lien():
    lien = record(penalised())

    errors = refused(
        lien_release, lien=lien, released_on=d("2025-09-10"), document_number="2025-0023456"
    )
    assert errors["released_on"] == [
        "2025-09-10 is before the recording of Lien 2025-0012345 for PO-1 (2025-09-11)."
    ]

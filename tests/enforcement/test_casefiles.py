"""The sweep's case files list the enforcement actions with their later facts, in bulk."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogkeeper.billing import casefiles as billing
from fogkeeper.compliance.casefiles import as_json as casefiles
from fogkeeper.compliance.casefiles.as_json import build_case_file, build_case_files
from fogkeeper.enforcement.services import (
    action_fact_record,
    action_take,
    case_open,
    hearing_schedule,
)
from tests.records import make_establishment

from .steps import d, heard_complaint, open_case

pytestmark = pytest.mark.django_db

AS_OF = d("2025-09-01")


def notice(case, code="NNC-1"):
    return action_take(
        case=case,
        type="notice_of_noncompliance",
        code=code,
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
        delivery="mail",
        certified_mail_number="7019-1",
    )


def test_it_lists_each_action_by_its_code_with_its_facts():
    fse, case, _ = open_case()
    action_fact_record(action=notice(case), field="corrected_on", value=d("2025-04-15"))

    assert build_case_file(fse, AS_OF)["enforcement"] == [
        {
            "id": "NNC-1",
            "type": "notice_of_noncompliance",
            "delivered_on": "2025-03-03",
            "correct_by": "2025-03-31",
            "corrected_on": "2025-04-15",
        }
    ]


def test_hearings_show_on_their_notice_not_as_actions():
    fse, case, _ = open_case()
    sn = action_take(
        case=case, type="suspension_notice", code="SN-1", fields={"mailed_on": d("2025-05-20")}
    )
    hearing_schedule(notice=sn, code="H-1", hearing_on=d("2025-06-02"), noticed_on=d("2025-05-20"))

    assert build_case_file(fse, AS_OF)["enforcement"] == [
        {
            "id": "SN-1",
            "type": "suspension_notice",
            "mailed_on": "2025-05-20",
            "hearing_on": "2025-06-02",
        }
    ]


def test_amounts_are_numbers_the_engine_reads():
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
            "amount": Decimal("1500.50"),
            "class": "records",
            "days": 1,
        },
    )

    entries = {e["id"]: e for e in build_case_file(fse, AS_OF)["enforcement"]}
    assert entries["PO-1"]["amount"] == 1500.5


def test_it_appends_the_invoices_of_the_billing_app(monkeypatch):
    fse, case, _ = open_case()
    notice(case)
    invoice = {"id": "INV-1", "type": "invoice", "noticed_on": "2025-03-10", "amount": 428.0}
    monkeypatch.setattr(billing, "money_actions", lambda ids, as_of: ({fse.pk: [invoice]}, {}))

    assert [a["id"] for a in build_case_file(fse, AS_OF)["enforcement"]] == ["NNC-1", "INV-1"]


def test_a_penalty_order_is_paid_on_the_day_billing_says_its_penalty_was_paid(monkeypatch):
    fse, _, _ = open_case()
    order = {"id": "PO-1", "type": "penalty_order", "issued_on": "2025-03-10"}
    monkeypatch.setattr(casefiles, "enforcement_entries", lambda agency, ids: {fse.pk: [order]})
    paid = ({fse.pk: []}, {fse.pk: {"PO-1": "2025-04-02"}})
    monkeypatch.setattr(billing, "money_actions", lambda ids, as_of: paid)

    assert build_case_file(fse, AS_OF)["enforcement"][0]["paid_on"] == "2025-04-02"


def test_it_reads_the_same_number_of_queries_for_one_establishment_or_three():
    fse, case, _ = open_case()
    notice(case)
    others = []
    for i in (2, 3):
        other = make_establishment(fse.agency, code=f"FSE-{i}")
        other_case = case_open(establishment=other, code=f"EC-{i}", opened_on=d("2025-03-01"))
        action_fact_record(
            action=notice(other_case, f"NNC-{i}"), field="corrected_on", value=d("2025-04-15")
        )
        others.append(other.pk)
    with CaptureQueriesContext(connection) as one:
        build_case_files(fse.agency, [fse.pk], AS_OF)
    with CaptureQueriesContext(connection) as three:
        cases = build_case_files(fse.agency, [fse.pk, *others], AS_OF)

    assert len(one) == len(three)
    assert [c["enforcement"][0]["id"] for c in cases.values()] == ["NNC-1", "NNC-2", "NNC-3"]

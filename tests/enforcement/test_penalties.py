"""Penalty classes are the pack's: a penalty order names an administrative class, a court
judgment a court class (RULES 11.3); a cap counts in its class's unit, which may be
violation-days (RULES 11.14); and one kind of recovery bars the other where the pack says so
(San Clemente 13.30.080(I)(8); the Town 10.02.330(J) and 10.02.340)."""

import shutil
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from fogkeeper.billing.services import invoice_issue, payment_record
from fogkeeper.enforcement.services import (
    action_fact_record,
    action_take,
    case_open,
    court_judgment_record,
    violation_add,
)
from fogkeeper.rules.packs import PACKS_DIR
from tests.records import make_agency, make_establishment

from .steps import d, findings, heard_complaint, open_case, refusal, refused

pytestmark = pytest.mark.django_db


def order(case, cls="records", amount="2000", by="manager", violation=None, **quantity):
    fields = {
        "issued_by": by,
        "issued_on": d("2025-07-01"),
        "served_on": d("2025-07-02"),
        "amount": Decimal(amount),
        "class": cls,
        **(quantity or {"days": 1}),
    }
    return dict(
        case=case,
        type="penalty_order",
        code="PO-1",
        fields=fields,
        violation=violation,
        refers_to=heard_complaint(case),
    )


def judgment(case, violation, entered_on="2025-09-01", amount="25000", **quantity):
    return dict(
        case=case,
        code="CJ-1",
        entered_on=d(entered_on),
        violation=violation,
        amount=Decimal(amount),
        **(quantity or {"days": 1}),
    )


# Who imposes a class


@pytest.mark.parametrize(
    ("pack", "by", "citation"),
    [
        ("san-clemente", "manager", "13.30.080(I)(3)"),
        ("town-10-02", "hearing_officer", "10.02.340"),
    ],
)
def test_a_penalty_order_may_not_impose_the_court_class(pack, by, citation):
    _, case, _ = open_case(pack)

    error = refusal(action_take, **order(case, cls="judicial", amount="1000", by=by))

    assert list(error.message_dict) == ["class"]
    assert citation in error.message_dict["class"][0]


def test_a_court_judgment_is_in_the_packs_court_class():
    _, case, violation = open_case("town-10-02")

    cj = court_judgment_record(**judgment(case, violation, amount="50000", days=2))

    assert (cj.fields["class"], cj.fields["days"], cj.cites) == ("judicial", 2, "10.02.340")


def test_a_court_judgment_counts_in_its_classs_unit():
    _, case, violation = open_case("town-10-02")

    error = refusal(court_judgment_record, **judgment(case, violation, occurrences=1))

    assert set(error.message_dict) == {"occurrences", "days"}


def test_a_court_judgment_names_no_administrative_class():
    _, case, violation = open_case("town-10-02")

    message = refused(court_judgment_record, **judgment(case, violation), penalty_class="overflow")

    assert "not a court penalty class" in message


# Administrative penalties recovered bar a judicial penalty (the Town, 10.02.340)


def test_the_town_refuses_a_judicial_penalty_once_the_penalty_order_was_paid():
    _, case, violation = open_case("town-10-02")
    po = action_take(**order(case, by="hearing_officer", violation=violation))
    action_fact_record(action=po, field="paid_on", value=d("2025-08-01"))

    error = refusal(court_judgment_record, **judgment(case, violation))

    assert list(error.message_dict) == ["violation"]
    assert "10.02.340" in error.message_dict["violation"][0]
    assert "PO-1" in error.message_dict["violation"][0]


def test_the_town_refuses_a_judicial_penalty_once_the_penalty_invoice_was_paid_in_full():
    fse, case, violation = open_case("town-10-02")
    action_take(**order(case, by="hearing_officer", violation=violation))
    invoice = invoice_issue(
        establishment=fse,
        code="INV-P1",
        kind="penalty",
        noticed_on=d("2025-07-02"),
        enforcement_action="PO-1",
        lines=[{"description": "Penalty", "amount": Decimal("2000")}],
    )
    payment_record(invoice=invoice, paid_on=d("2025-08-01"), amount=Decimal("2000"), method="check")

    assert "10.02.340" in refused(court_judgment_record, **judgment(case, violation))


def test_the_town_allows_a_judicial_penalty_while_the_penalty_order_is_unpaid():
    _, case, violation = open_case("town-10-02")
    action_take(**order(case, by="hearing_officer", violation=violation))

    assert court_judgment_record(**judgment(case, violation)).code == "CJ-1"


def test_the_town_allows_a_judicial_penalty_entered_before_the_order_was_paid():
    _, case, violation = open_case("town-10-02")
    po = action_take(**order(case, by="hearing_officer", violation=violation))
    action_fact_record(action=po, field="paid_on", value=d("2025-09-15"))

    assert court_judgment_record(**judgment(case, violation)).code == "CJ-1"


def test_sc_does_not_bar_a_judicial_penalty_after_administrative_penalties_were_paid():
    _, case, violation = open_case("san-clemente")
    po = action_take(**order(case, violation=violation))
    action_fact_record(action=po, field="paid_on", value=d("2025-08-01"))

    assert court_judgment_record(**judgment(case, violation)).code == "CJ-1"


def test_a_penalty_order_dated_before_the_ordinance_is_refused_in_words_against_its_first_cap():
    _, case, _ = open_case("san-clemente")
    kw = order(case, amount="9000")
    kw["fields"].update(issued_on=d("2009-01-05"), served_on=d("2009-01-06"))

    error = refusal(action_take, **kw)

    # the cap the engine reads for a day before it took effect: the ordinance's first
    assert error.message_dict["amount"] == [
        "13.30.080(I)(4)(c)(1): a records penalty may not exceed $2,000 a day × 1 = $2,000 "
        "(asked $9,000)."
    ]


# A cap per violation-day (RULES 11.14), in a pack that counts one


@pytest.fixture
def per_violation(tmp_path, monkeypatch):
    """The Town's pack under another id, its records penalty counted per violation-day."""
    folder = tmp_path / "packs" / "town-per-violation"
    shutil.copytree(Path(PACKS_DIR) / "town-10-02", folder)
    meta = folder / "pack.yaml"
    meta.write_text(meta.read_text().replace("id: town-10-02", "id: town-per-violation", 1))
    params_file = folder / "parameters.yaml"
    params = yaml.safe_load(params_file.read_text())
    for v in params["enforcement.penalty_cap.records"]["values"].values():
        v["value"]["per"] = "violation_days"
    params_file.write_text(yaml.safe_dump(params, sort_keys=False))
    monkeypatch.setenv("FOGKEEPER_PACKS", str(tmp_path / "packs"))
    fse = make_establishment(make_agency("town-per-violation"), code="FSE-1")
    case = case_open(establishment=fse, code="EC-1", opened_on=d("2025-03-01"))
    violation_add(
        case=case, code="V-1", rule="gcd.service_overdue", subject="GI-1", since=d("2025-02-15")
    )
    return fse, case


def test_a_cap_per_violation_day_counts_violations_times_days(per_violation):
    fse, case = per_violation

    # 2 violations × 20 days = 40 violation-days at $2,000: $80,000 is at the cap.
    action_take(**order(case, amount="80000", by="hearing_officer", violation_days=40))

    assert findings(fse, "2025-07-02", "enforcement.penalty_over_cap") == []


def test_a_penalty_above_the_cap_per_violation_day_is_refused(per_violation):
    _, case = per_violation

    error = refusal(
        action_take, **order(case, amount="80000.01", by="hearing_officer", violation_days=40)
    )

    assert list(error.message_dict) == ["amount"]
    assert "violation day × 40 = $80,000" in error.message_dict["amount"][0]

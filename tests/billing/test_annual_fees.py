"""`manage.py invoice_annual_fees`: the annual inspection fee (San Clemente 13.30.050(M))
invoiced once per active establishment per year from the schedule in force."""

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from fogkeeper.billing.models import Invoice
from fogkeeper.billing.services import fee_schedule_set
from fogkeeper.registry.models import FoodServiceEstablishment
from tests.records import d, make_agency, make_establishment

from .records import TOWN_FEES, invoice

pytestmark = pytest.mark.django_db

SC_FEES = [
    {
        "code": "RGI",
        "description": "Annual Restaurant Grease Inspection fee",
        "amount": Decimal("312.00"),
        "basis": "annual",
        "citation": "13.30.050(M)",
    },
    {
        "code": "CLEAN",
        "description": "Quarterly clean-out fee",
        "amount": Decimal("95.00"),
        "basis": "quarterly",
        "citation": "13.30.050(M)",
    },
]


@pytest.fixture
def sc():
    agency = make_agency("san-clemente")
    fee_schedule_set(agency=agency, effective_on=d("2024-07-01"), items=SC_FEES)
    for code, closed_on in (("FSE-1", None), ("FSE-2", None), ("FSE-3", "2025-12-31")):
        make_establishment(agency, code=code, operator=f"Operator {code}", closed_on=closed_on)
    return agency


def run(*args) -> str:
    out = StringIO()
    call_command("invoice_annual_fees", *args, stdout=out)
    return out.getvalue()


def test_it_invoices_the_annual_fee_to_each_active_establishment(sc):
    output = run("--agency", sc.code, "--year", "2026", "--on", "2026-01-15")

    invoices = Invoice.objects.filter(agency=sc).order_by("code")
    assert [(i.code, i.total()) for i in invoices] == [
        ("RGI-2026-FSE-1", Decimal("312.00")),
        ("RGI-2026-FSE-2", Decimal("312.00")),
    ]
    assert "Issued: 2 (FSE-1, FSE-2)" in output


def test_a_second_run_adds_nothing_and_says_so(sc):
    run("--agency", sc.code, "--year", "2026", "--on", "2026-01-15")

    output = run("--agency", sc.code, "--year", "2026", "--on", "2026-02-01")

    assert Invoice.objects.filter(agency=sc).count() == 2
    assert "Already invoiced for 2026: 2 (FSE-1, FSE-2)" in output
    assert "Nothing new was invoiced." in output


def test_one_refusal_does_not_lose_the_others(sc):
    fse = FoodServiceEstablishment.objects.get(agency=sc, code="FSE-1")
    invoice(fse, code="RGI-2026-FSE-1", noticed_on="2026-01-02", fees=["CLEAN"])

    output = run("--agency", sc.code, "--year", "2026", "--on", "2026-01-15")

    assert Invoice.objects.filter(code="RGI-2026-FSE-2").exists()
    assert "Refused: 1" in output and "FSE-1:" in output


def test_the_fee_is_that_of_the_schedule_in_force_on_the_date(sc):
    raised = [{**SC_FEES[0], "amount": Decimal("330.00")}]
    fee_schedule_set(agency=sc, effective_on=d("2026-07-01"), items=raised)

    run("--agency", sc.code, "--year", "2026", "--on", "2026-07-01")

    assert Invoice.objects.get(code="RGI-2026-FSE-1").total() == Decimal("330.00")


def test_it_refuses_an_agency_whose_schedule_charges_no_annual_inspection_fee():
    town = make_agency("town-10-02", code="town")
    fee_schedule_set(agency=town, effective_on=d("2024-07-01"), items=TOWN_FEES)

    refusal = r"charges no annual inspection fee: .* cited to 10.02.110\(F\)"
    with pytest.raises(CommandError, match=refusal):
        run("--agency", "town", "--year", "2026", "--on", "2026-01-15")


def test_it_refuses_a_notice_date_outside_the_year(sc):
    with pytest.raises(CommandError, match="not in 2026"):
        run("--agency", sc.code, "--year", "2026", "--on", "2025-12-31")

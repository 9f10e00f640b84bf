"""An invoice as a bill: due on a day the pack gives (the ordinance's payment period, else
the bill's own term), a PDF on the agency's letterhead with its number, lines, total, due
date and how to pay, and the pack's payment instructions."""

import io
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from pypdf import PdfReader

from fogkeeper.billing.documents import how_to_pay, invoice_pdf
from fogkeeper.billing.selectors import invoice_due_on
from tests.billing.records import invoice
from tests.records import d, make_agency, make_establishment

pytestmark = pytest.mark.django_db

PACKS = Path(__file__).resolve().parents[1] / "rules" / "packs"


def text_of(pdf: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())


def san_clemente_invoice():
    agency = make_agency(letterhead="910 Calle Negocio\nSan Clemente, CA 92673")
    fse = make_establishment(agency, code="FSE-9", name="Pier Taqueria", operator="Harbor Eats")
    lines = [
        {"description": "Reinspection", "amount": Decimal("100.00"), "citation": "13.30.050(F)"}
    ]
    return invoice(fse, code="SC-INV-4", noticed_on="2025-05-01", lines=lines)


def test_a_san_clemente_invoice_is_due_thirty_days_after_notice_on_a_business_day():
    # the ordinance sets no payment deadline: the bill's own term, 30 days, 2025-05-31 a
    # Saturday, so the next business day
    assert invoice_due_on(san_clemente_invoice()) == d("2025-06-02")


def test_the_pdf_is_a_bill_on_the_letterhead_with_lines_total_due_date_and_how_to_pay():
    text = text_of(invoice_pdf(san_clemente_invoice(), d("2025-05-10")))
    assert "City of San Clemente" in text and "910 Calle Negocio" in text
    assert "Invoice SC-INV-4" in text and "Harbor Eats" in text
    assert "Reinspection" in text and "13.30.050(F)" in text and "$100.00" in text
    assert "Due June 2, 2025" in text
    assert "Pay $100.00 by June 2, 2025, quoting invoice SC-INV-4" in text
    assert "Make checks payable to City of San Clemente and mail them to: 910 Calle Negocio" in text


def test_the_packs_billing_gives_the_term_payee_phone_and_link(tmp_path, monkeypatch):
    folder = tmp_path / "imaginary-town"
    shutil.copytree(PACKS / "imaginary-town", folder)
    meta = folder / "pack.yaml"
    meta.write_text(
        meta.read_text(encoding="utf-8")
        + (
            "billing:\n  payment_term_days: 14\n  payee: Town Treasurer\n"
            "  address: 1 Main St, Imaginary Town\n  phone: 555-0100\n"
            "  online: https://pay.example.gov/fog\n"
        ),
        encoding="utf-8",
    )
    monkeypatch.setenv("FOGKEEPER_PACKS", str(tmp_path))
    agency = make_agency("imaginary-town")
    assert how_to_pay(agency) == {
        "payee": "Town Treasurer",
        "address": "1 Main St, Imaginary Town",
        "phone": "555-0100",
        "online": "https://pay.example.gov/fog",
    }

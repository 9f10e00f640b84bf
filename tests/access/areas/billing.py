"""The money pages (fogkeeper/web/billing/views.py): every staff role reads them; the fee schedule
is the manager's to set; invoices, voids, credits and liens the manager's and the clerk's
("invoice"), payments theirs too ("payment"). An invoice's PDF is read as the invoice; the
operator downloads its own establishment's from the portal."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from fogkeeper.billing.models import Invoice, Lien

TABLE = """
web:billing_fees                    GET   ok    ok    ok    ok    404   404   404   own   login
web:billing_fees                    POST  ok    403   403   403   404   404   404   own   login
web:account                         GET   ok    ok    ok    ok    404   404   404   404   login
web:account                         POST  405   405   405   405   404   404   404   404   login
web:invoice_new                     GET   ok    403   ok    403   404   404   404   404   login
web:invoice_new                     POST  ok    403   ok    403   404   404   404   404   login
web:invoice                         GET   ok    ok    ok    ok    404   404   404   404   login
web:invoice                         POST  ok    403   ok    403   404   404   404   404   login
web:invoice_pdf                     GET   ok    ok    ok    ok    404   404   404   404   login
web:invoice_pdf                     POST  405   405   405   405   404   404   404   404   login
portal:operator_invoice             GET   404   404   404   404   ok    404   404   404   login
portal:operator_invoice             POST  404   404   404   404   405   404   404   404   login
web:lien_new                        GET   ok    403   ok    403   404   404   404   404   login
web:lien_new                        POST  ok    403   ok    403   404   404   404   404   login
web:lien_release                    GET   ok    403   ok    403   404   404   404   404   login
web:lien_release                    POST  ok    403   ok    403   404   404   404   404   login
"""


def _invoice(side) -> dict:
    invoice = Invoice.objects.filter(agency=side.agency).select_related("establishment")
    found = invoice.earliest("pk")
    return {"code": found.establishment.code, "invoice": found.code}


def _lien(side) -> dict:
    """A lien of the agency; the demo records none, so one is put on record for the URL."""
    lien = Lien.objects.filter(agency=side.agency).first()
    if lien is None:
        fse = Invoice.objects.filter(agency=side.agency).earliest("pk").establishment
        lien = Lien.objects.create(
            agency=side.agency,
            establishment=fse,
            enforcement_action="PO-MATRIX",
            recorded_on=date(2026, 1, 5),
            amount=Decimal("100.00"),
            document_number="MATRIX-1",
        )
    return {"code": lien.establishment.code, "pk": lien.pk}


RECORDS = {"web:invoice": _invoice, "web:invoice_pdf": _invoice, "web:lien_release": _lien}

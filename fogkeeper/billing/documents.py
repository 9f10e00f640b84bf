"""An invoice as a bill a city would mail: on the agency's letterhead (as its letters), the
invoice number, its lines and total, what is already paid, the day it is due and how to pay
(the pack's payment instructions). WeasyPrint fetches nothing outside this folder."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from django.template.loader import get_template
from weasyprint import CSS, HTML

from fogkeeper.formats import money
from fogkeeper.rules.payment import payment_terms

from .models import Invoice
from .selectors import invoice_balance, invoice_due_on

FOLDER = Path(__file__).resolve().parent / "templates" / "billing"
# files, not <style>: the CSP test reads templates; the letterhead is the letters' own
LETTERHEAD = Path(__file__).resolve().parents[1] / "letterhead.css"
STYLE = Path(__file__).resolve().parent / "invoice.css"


def how_to_pay(agency) -> dict:
    """Where and how the agency's bills are paid: the pack's `billing` instructions, the
    agency's name and letterhead where it gives no payee or address."""
    terms = payment_terms(agency.get_pack())
    return {
        "payee": terms.payee or agency.name,
        "address": terms.address or agency.letterhead,
        "phone": terms.phone,
        "online": terms.online,
    }


def _shown(line):
    line.shown = money(line.amount)
    return line


def invoice_pdf(invoice: Invoice, on: date) -> bytes:
    """The bill of `invoice` with what is still owed on `on`."""
    # the letters' machinery, read when a bill is made: enforcement's letters read billing
    from fogkeeper.enforcement.letter_filters import longdate
    from fogkeeper.enforcement.letters import LocalFetcher

    agency = invoice.agency
    fse = invoice.establishment
    tenure = fse.current_tenure()
    context = {
        "agency": {"name": agency.name, "letterhead": agency.letterhead or ""},
        "titles": dict(agency.get_pack().titles),
        "invoice": invoice,
        "lines": [_shown(line) for line in invoice.lines.all()],
        "total": money(invoice.total()),
        "balance": money(invoice_balance(invoice, on)),
        "noticed": longdate(invoice.noticed_on),
        "due": longdate(due) if (due := invoice_due_on(invoice)) else "",
        "operator": tenure.operator.name if tenure else "",
        "establishment": fse,
        "pay": how_to_pay(agency),
    }
    html = get_template("billing/invoice.html").render(context)
    fetcher = LocalFetcher(FOLDER)
    return HTML(string=html, base_url=FOLDER.as_uri() + "/", url_fetcher=fetcher).write_pdf(
        stylesheets=[CSS(filename=str(LETTERHEAD)), CSS(filename=str(STYLE))]
    )

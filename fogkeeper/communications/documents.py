"""A communication as a letter for the post: one PDF for one establishment, on the agency's
letterhead, dated the communication's day, addressed to its operator, the subject and the body
as merged for it (plain text, escaped: what the staff wrote is never a template). WeasyPrint
fetches nothing: the letter names no resource outside this folder."""

from __future__ import annotations

from pathlib import Path

from django.template.loader import get_template
from weasyprint import CSS, HTML

from fogkeeper.enforcement.letter_filters import longdate
from fogkeeper.enforcement.letters import PREVIEW_MARK, LocalFetcher

# the print style of the PDF (a file, not a <style> in the page: the CSP test reads every template)
STYLE = Path(__file__).resolve().parents[1] / "letterhead.css"  # the letters' and the bills'

FOLDER = Path(__file__).resolve().parent / "templates" / "communications"


def letter_pdf(
    communication, fse, *, subject: str, body: str, operator: str, preview: bool = False
) -> bytes:
    """The letter of `communication` to `fse` as sent (or marked PREVIEW — not sent)."""
    agency = communication.agency
    context = {
        "agency": {"name": agency.name, "letterhead": getattr(agency, "letterhead", "") or ""},
        "titles": dict(agency.get_pack().titles),
        "dated": longdate(communication.as_of),
        "operator": operator,
        "establishment": fse,
        "subject": subject,
        "body": body,
        "legal_notice": communication.kind == communication.LEGAL_NOTICE,
        "enclosed": communication.attachment_name,
        "preview": PREVIEW_MARK if preview else "",
    }
    html = get_template("communications/letter.html").render(context)
    fetcher = LocalFetcher(FOLDER)
    return HTML(string=html, base_url=FOLDER.as_uri() + "/", url_fetcher=fetcher).write_pdf(
        stylesheets=[CSS(filename=str(STYLE))]
    )

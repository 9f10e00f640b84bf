"""The operator's receipt of an inspection: what the inspector found, as a PDF, and emailed.

`receipt_pdf` renders an inspection (its checklist answers in the pack's words with their
citations, in the order the pack asks them, the items found out of compliance, the depths
measured against the pack's limit, the photos taken as thumbnails, and the signature of who
signed for the establishment) with WeasyPrint, only what inspections.shown lets the operator
see (never the inspectors' notes); the signature and the thumbnails are embedded as `data:`
URLs and nothing else is fetched. Its sections are kept whole where they fit, so that no
last page holds a line or two. `receipt_send` emails it
to the operator's address, when the operator has one, once: `receipt_sent_at` is stored in the
transaction that sends it (with its audit row), so a task run twice sends once, and a failed
send is not marked.
It runs when the inspection's transaction commits (tasks.receipt_queue: on a worker when a
broker is set, inline otherwise)."""

from __future__ import annotations

import base64
import logging
import mimetypes
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from weasyprint import CSS, HTML
from weasyprint.urls import URLFetcher

from fogkeeper.registry.services import audit

from .models import Inspection
from .photos import thumbnail_bytes
from .selectors import accumulation_limit
from .shown import of_record

# the print style of the PDF (a file, not a <style> in the page: the CSP test reads every template)
STYLE = Path(__file__).resolve().parent / "receipt.css"

log = logging.getLogger(__name__)


class DataOnlyFetcher(URLFetcher):
    """A receipt loads nothing but its own `data:` URLs."""

    def __init__(self):
        super().__init__(allowed_protocols=("data",))


def _operator(inspection: Inspection):
    tenure = inspection.establishment.current_tenure()
    return tenure.operator if tenure else None


def _signature_url(inspection: Inspection) -> str:
    if not inspection.signature:
        return ""
    with inspection.signature.open("rb") as stream:
        data = stream.read()
    kind = mimetypes.guess_type(inspection.signature.name or "")[0] or "image/png"
    return f"data:{kind};base64,{base64.b64encode(data).decode()}"


def _answers(inspection: Inspection, checklist, *, staff: bool) -> list[dict[str, Any]]:
    rows = []
    place = {item: i for i, item in enumerate(checklist)}  # the order the pack asks them in
    found = inspection.answers.select_related("device")
    in_order = sorted(
        found,
        key=lambda a: (place.get(a.item, len(place)), a.item, a.device.code if a.device else ""),
    )
    for a in in_order:
        item = checklist.get(a.item)
        row = {
            "device": a.device.code if a.device else "",
            "compliant": a.compliant,
            "note": a.note,
        }
        rows.append(
            {
                **(row if staff else of_record(row, "answers.")),
                "question": item.question if item else a.item,
                "citation": item.citation if item else "",
            }
        )
    return rows


def _readings(inspection: Inspection, pack, *, staff: bool) -> list[dict[str, Any]]:
    rows = []
    for m in inspection.measurements.select_related("device").order_by("device__code"):
        depth = m.device.design_depth_inches
        limit = accumulation_limit(pack, m.device.kind, max(inspection.date, pack.effective))
        values = {
            "device": m.device.code,
            "fog_inches": m.fog_inches,
            "solids_inches": m.solids_inches,
        }
        row: dict[str, Any] = values if staff else of_record(values, "measurements.")
        row.update({"percent": None, "limit": None, "over": False})
        if depth and m.fog_inches is not None and m.solids_inches is not None:
            share = (m.fog_inches + m.solids_inches) / depth
            row["percent"] = round(share * 100, 1)
            if limit is not None:
                row["limit"] = round(Decimal(str(limit.value)) * 100)
                row["citation"] = limit.reference
                row["over"] = share > Decimal(str(limit.value))
        rows.append(row)
    return rows


def _photo_urls(inspection: Inspection) -> list[str]:
    """Each photo taken as a thumbnail (its stored one, or one made now while the worker has
    not yet made it), embedded as a `data:` URL; one that cannot be read is left out."""
    urls = []
    for photo in inspection.photos.all():
        data = _stored_thumbnail(photo) or thumbnail_bytes(photo)
        if data:
            urls.append(f"data:image/jpeg;base64,{base64.b64encode(data).decode()}")
    return urls


def _stored_thumbnail(photo) -> bytes | None:
    if not photo.thumbnail:
        return None
    try:
        with photo.thumbnail.open("rb") as stream:
            return stream.read()
    except OSError:  # its file lost: made again from the photo
        return None


def _inspector(inspection: Inspection) -> str:
    who = inspection.inspector
    return (who.get_full_name() or who.get_username()) if who else ""


def receipt_context(inspection: Inspection, *, staff: bool = False) -> dict[str, Any]:
    """What the operator's receipt states: of the inspection, only what inspections.shown
    lets the operator see (never the inspectors' notes). `staff` (the inspection's page in
    the agency): every field, `inspection` the record itself."""
    fse = inspection.establishment
    pack = fse.agency.get_pack()
    answers = _answers(inspection, pack.checklist, staff=staff)
    record = {
        "code": inspection.code,
        "date": inspection.date,
        "inspector": _inspector(inspection),
        "signed_by": inspection.signed_by,
    }
    return {
        "inspection": inspection if staff else of_record(record),
        "agency": fse.agency,
        "titles": pack.titles,
        "establishment": fse,
        "operator": _operator(inspection),
        "answers": answers,
        "found": [a for a in answers if not a["compliant"]],
        "readings": _readings(inspection, pack, staff=staff),
        "photos": [] if staff else _photo_urls(inspection),  # the staff page links its own
        "signature": _signature_url(inspection),
    }


def receipt_pdf(inspection: Inspection) -> bytes:
    """The receipt of `inspection` as a PDF."""
    html = render_to_string("inspections/receipt.html", receipt_context(inspection))
    return HTML(string=html, url_fetcher=DataOnlyFetcher()).write_pdf(
        stylesheets=[CSS(filename=str(STYLE))]
    )


def receipt_filename(inspection: Inspection) -> str:
    return f"inspection-{inspection.establishment.code}-{inspection.code}.pdf"


def receipt_send(inspection_id: int) -> bool:
    """Email the receipt of the inspection to its establishment's operator, unless sent before
    or the operator has no address; True when this call sent it."""
    with transaction.atomic():
        inspection = (
            Inspection.objects.select_for_update(of=("self",))
            .select_related("establishment__agency", "inspector")
            .filter(pk=inspection_id, receipt_sent_at__isnull=True)
            .first()
        )
        operator = _operator(inspection) if inspection else None
        if inspection is None or operator is None or not operator.email:
            return False
        fse = inspection.establishment
        message = EmailMessage(
            subject=f"{fse.name}: inspection {inspection.code} of {inspection.date:%Y-%m-%d}",
            body=_body(inspection, operator),
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[operator.email],
        )
        message.attach(receipt_filename(inspection), receipt_pdf(inspection), "application/pdf")
        inspection.receipt_sent_to, inspection.receipt_sent_at = operator.email, timezone.now()
        inspection.save(update_fields=["receipt_sent_to", "receipt_sent_at"])
        audit("inspection.receipt_send", inspection, None, after={"to": operator.email})
        message.send()
    log.info("inspection %s: receipt sent to %s", inspection_id, operator.email)
    return True


def _body(inspection: Inspection, operator) -> str:
    fse = inspection.establishment
    department = fse.agency.get_pack().titles.get("department", "")
    sender = fse.agency.name + (f", {department}" if department else "")
    failed = inspection.answers.filter(compliant=False).count()
    found = (
        f"{failed} checklist item{'s' if failed != 1 else ''} out of compliance"
        if failed
        else "no checklist item out of compliance"
    )
    return "\n".join(
        [
            f"Dear {operator.name},",
            "",
            f"{sender} inspected {fse.name} ({fse.code}), {fse.address}, on "
            f"{inspection.date:%A, %B} {inspection.date.day}, {inspection.date.year} "
            f"(inspection {inspection.code}), and found {found}.",
            "",
            "The attached receipt lists each question of the checklist with the section of the "
            "ordinance it comes from, what was found, the depths measured in your grease "
            "control devices, and the signature given on site.",
            "",
            f"{sender}, FOG program",
        ]
    )

"""The operator's receipt of an inspection: the PDF read back, and the email sent once to the
operator's address when there is one (fogkeeper/inspections/receipts.py)."""

import io
import uuid
from datetime import date
from decimal import Decimal

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import TestCase
from PIL import Image
from pypdf import PdfReader

from fogkeeper.audit.models import AuditEvent
from fogkeeper.inspections.models import Inspection
from fogkeeper.inspections.offline import Upload, inspection_sync
from fogkeeper.inspections.photos import thumbnail_make
from fogkeeper.inspections.receipts import receipt_pdf, receipt_send
from fogkeeper.inspections.services import Answer, Reading, inspection_photo_add
from fogkeeper.inspections.snapshots import establishment_seen, version_of
from fogkeeper.registry.models import GreaseControlDevice, Operator
from fogkeeper.web.models import Membership
from tests.compliance.records import make_pier_taqueria
from tests.images import png
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

DAY = date(2025, 6, 30)


@pytest.fixture
def fse(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    sc, _ = two_agencies()
    return make_pier_taqueria(sc)


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def synced(fse, **fields) -> Inspection:
    """An inspection sent from the field app, its receipt emailed as the transaction commits."""
    seen = establishment_seen(fse)
    gi = GreaseControlDevice.objects.get(code="GI-1")
    values = {
        "client_id": uuid.uuid4(),
        "version": version_of(seen),
        "seen": seen,
        "code": "F-1",
        "date": DAY,
        "signature": png("signature.png", (300, 100)),
        "signed_by": "Ana Ruiz",
        "answers": [Answer("bmp.spill_kit", False, note="kit empty"), Answer("bmp.signage", True)],
        "measurements": [Reading(gi, fog_inches=Decimal("6"), solids_inches=Decimal("7"))],
    }
    inspector = make_user("ines", fse.agency)
    with TestCase.captureOnCommitCallbacks(execute=True):
        upload = Upload(**{**values, **fields})
        return inspection_sync(
            establishment=fse, upload=upload, inspector=inspector, today=DAY
        ).inspection


def test_the_receipt_states_what_was_found_with_its_section_and_the_signature(fse):
    inspection = synced(fse)
    pdf = receipt_pdf(inspection)
    text = text_of(pdf)
    assert "City of San Clemente" in text and "Receipt of inspection F-1" in text
    assert "Pier Taqueria (FSE-0042), 101 Avenida Del Mar" in text
    found = text.split("Found out of compliance", 1)[1].split("Checklist", 1)[0]
    assert "Is a spill kit kept on site and stocked?" in found and "13.30.050(H)(4)(i)" in found
    assert "27.1% (limit 25%" in text and "over the limit" in text
    assert "Ana Ruiz" in text.split("Signed for the establishment", 1)[1]
    images = PdfReader(io.BytesIO(pdf)).pages[-1]["/Resources"]["/XObject"]
    assert len(images) == 1  # the signature


def test_the_receipt_of_an_inspection_not_signed_says_so(fse):
    inspection = synced(fse, signature=None, signed_by="")
    assert "Not signed on site." in text_of(receipt_pdf(inspection))


def test_it_emails_the_receipt_to_the_operator_once(fse):
    Operator.objects.filter(name="Harbor Eats Inc").update(email="owner@harboreats.example")
    inspection = synced(fse)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["owner@harboreats.example"]
    assert message.subject == "Pier Taqueria: inspection F-1 of 2025-06-30"
    assert "found 1 checklist item out of compliance" in message.body
    name, pdf, kind = message.attachments[0]
    assert (name, kind) == ("inspection-FSE-0042-F-1.pdf", "application/pdf")
    assert "Receipt of inspection F-1" in text_of(pdf)
    assert receipt_send(inspection.pk) is False
    assert len(mail.outbox) == 1
    inspection.refresh_from_db()
    assert inspection.receipt_sent_to == "owner@harboreats.example"
    sent = AuditEvent.objects.get(action="inspection.receipt_send")
    assert sent.after == {"to": "owner@harboreats.example"}


def test_it_emails_nothing_when_the_operator_has_no_address(fse):
    inspection = synced(fse)
    assert mail.outbox == []
    inspection.refresh_from_db()
    assert inspection.receipt_sent_at is None


def test_a_receipt_that_could_not_be_sent_is_not_marked_sent(fse, monkeypatch):
    inspection = synced(fse)
    Operator.objects.filter(name="Harbor Eats Inc").update(email="owner@harboreats.example")

    def down(self, fail_silently=False):
        raise ConnectionRefusedError("the mail server is down")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", down)
    with pytest.raises(ConnectionRefusedError):
        receipt_send(inspection.pk)
    inspection.refresh_from_db()
    assert inspection.receipt_sent_at is None


NOTES = {"notes": "NOTE-7Q for inspectors only", "answer": "ANSWER-7Q said the cook"}


def test_the_inspectors_notes_stay_with_the_agency_on_the_receipt_too(fse, client):
    """The notes are on the staff page, and neither in the receipt emailed (its body and its
    PDF), nor the receipt's download, nor the operator's portal."""
    operator = Operator.objects.get(name="Harbor Eats Inc")
    operator.email = "owner@harboreats.example"
    operator.save()
    answers = [Answer("bmp.spill_kit", False, note=NOTES["answer"]), Answer("bmp.signage", True)]
    inspection = synced(fse, notes=NOTES["notes"], answers=answers)
    client.force_login(inspection.inspector)
    staff = client.get(f"/inspections/{inspection.pk}/").content.decode()
    assert all(note in staff for note in NOTES.values())
    (message,) = mail.outbox
    download = client.get(f"/inspections/{inspection.pk}/receipt.pdf").content
    olive = make_user("olive")
    Membership.objects.create(user=olive, agency=fse.agency, role="operator", operator=operator)
    client.force_login(olive)
    portal = client.get(f"/portal/operator/{fse.code}/").content.decode()
    assert f"inspection {inspection.code}" in portal
    emailed = text_of(message.attachments[0][1])
    seen = {
        "the email": message.body,
        "the receipt": emailed,
        "the download": text_of(download),
        "the portal": portal,
    }
    for where, text in seen.items():
        for note in NOTES.values():
            assert note not in text, f"{where} shows {note!r}"


def test_every_field_of_the_receipt_is_one_the_operator_is_shown(fse):
    """The receipt's fields are the results the operator's portal and the API show, and what
    was done in front of the operator on site; the API's table is the same list."""
    from fogkeeper.api.shown import SHOWN
    from fogkeeper.inspections.receipts import receipt_context
    from fogkeeper.inspections.shown import AGENCY_ONLY, ON_SITE, OPERATOR

    inspection = synced(fse, notes=NOTES["notes"])
    context = receipt_context(inspection)
    fields = set(context["inspection"]) | {f"answers.{k}" for a in context["answers"] for k in a}
    fields |= {f"measurements.{k}" for r in context["readings"] for k in r}
    words = {"answers.question", "answers.citation"}  # answers.item, in the pack's words
    figures = {f"measurements.{k}" for k in ("percent", "limit", "citation", "over")}
    assert fields - words - figures <= set(OPERATOR) | set(ON_SITE)
    assert not fields & set(AGENCY_ONLY)
    api = SHOWN["operator"]["inspection"]
    assert set(api) == {"id", "establishment", *OPERATOR}
    assert not set(api) & set(AGENCY_ONLY)


def photo(name: str, colour: str) -> SimpleUploadedFile:
    """A photo of one colour, as a phone's camera sends it (a JPEG)."""
    out = io.BytesIO()
    Image.new("RGB", (640, 480), colour).save(out, "JPEG")
    return SimpleUploadedFile(name, out.getvalue(), content_type="image/jpeg")


def images_in(pdf: bytes) -> int:
    """The images the PDF draws, page by page (the signature, the photos)."""
    count = 0
    for page in PdfReader(io.BytesIO(pdf)).pages:
        found = page["/Resources"].get("/XObject") or {}
        count += sum(1 for x in found.values() if x.get_object()["/Subtype"] == "/Image")
    return count


def whole_checklist(fse) -> list[Answer]:
    """Every item of the pack's checklist answered, the first in three not compliant."""
    items = list(fse.agency.get_pack().checklist)
    return [Answer(item, n % 3 != 0) for n, item in enumerate(items)]


def test_the_receipt_lists_the_checklist_in_the_order_the_pack_asks_it(fse):
    """Not alphabetically: the pack asks of food waste first and of signage after spill kits."""
    answers = whole_checklist(fse)
    pdf = receipt_pdf(synced(fse, answers=list(reversed(answers))))
    checklist = text_of(pdf).split("\nChecklist", 1)[1].replace("\n", " ")
    pack = fse.agency.get_pack().checklist
    questions = [pack[a.item].question for a in answers]
    at = [checklist.find(" ".join(q.split()[:6])) for q in questions]
    assert -1 not in at
    assert at == sorted(at), "the receipt's checklist is not in the pack's order"


def test_the_receipt_shows_the_photos_taken_not_a_count_of_them(fse):
    inspection = synced(fse)
    for n, colour in enumerate(("red", "green", "blue")):  # three photos, not one thrice
        inspection_photo_add(inspection=inspection, image=photo(f"trap-{n}.jpg", colour))
    pdf = receipt_pdf(inspection)
    assert images_in(pdf) == 1 + 3  # the signature and each photo, its thumbnail made now
    assert "Photo 3" in text_of(pdf)
    for stored in inspection.photos.all():
        assert thumbnail_make(stored.pk)
    assert images_in(receipt_pdf(inspection)) == 1 + 3  # the thumbnails the worker made


def _content_bottom(page) -> float:
    """How far down the page its lowest line of text lies, as a share of its height (the page
    number in the margin aside)."""
    lows = []

    def visit(text, cm, tm, font, size):
        if text.strip() and not text.strip().startswith("Page "):
            lows.append(tm[5])

    page.extract_text(visitor_text=visit)
    height = float(page.mediabox.height)
    return 1 - min(lows) / height


def test_a_receipt_of_the_whole_checklist_ends_on_a_page_well_filled(fse):
    """The last rows of the checklist, the signature and the closing words are kept together:
    the last page is never a line or two alone, and the receipt is short."""
    pdf = receipt_pdf(synced(fse, answers=whole_checklist(fse)))
    pages = PdfReader(io.BytesIO(pdf)).pages
    assert len(pages) <= 2
    assert _content_bottom(pages[-1]) > 0.4, "the receipt's last page is nearly empty"


def test_a_receipt_of_a_short_inspection_is_one_page(fse):
    assert len(PdfReader(io.BytesIO(receipt_pdf(synced(fse)))).pages) == 1

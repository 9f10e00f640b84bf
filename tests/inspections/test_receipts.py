"""The operator's receipt of an inspection: the PDF read back, and the email sent once to the
operator's address when there is one (fogkeeper/inspections/receipts.py)."""

import io
import uuid
from datetime import date
from decimal import Decimal

import pytest
from django.core import mail
from django.test import TestCase
from pypdf import PdfReader

from fogkeeper.audit.models import AuditEvent
from fogkeeper.inspections.models import Inspection
from fogkeeper.inspections.offline import Upload, inspection_sync
from fogkeeper.inspections.receipts import receipt_pdf, receipt_send
from fogkeeper.inspections.services import Answer, Reading
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
        "client_id": uuid.uuid4(), "version": version_of(seen), "seen": seen, "code": "F-1",
        "date": DAY, "signature": png("signature.png", (300, 100)), "signed_by": "Ana Ruiz",
        "answers": [Answer("bmp.spill_kit", False, note="kit empty"), Answer("bmp.signage", True)],
        "measurements": [Reading(gi, fog_inches=Decimal("6"), solids_inches=Decimal("7"))],
    }  # fmt: skip
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
    seen = {"the email": message.body, "the receipt": emailed, "the download": text_of(download),
            "the portal": portal}  # fmt: skip
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

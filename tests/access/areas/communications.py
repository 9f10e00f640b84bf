"""Letters and emails to many establishments (fogkeeper/web/communications/): every staff role
reads the agency's communications, one with its recipients, its attachment and its letters;
the manager and the clerk ("communication") write one, send it and carry it on when stopped;
the outside roles never see them. A newsletter's unsubscribe link is for anyone who has it,
signed in or not: the signed token is the authority."""

from __future__ import annotations

from django.core.files.base import ContentFile

from fogkeeper.communications import unsubscribe
from fogkeeper.communications.models import Communication, Recipient

from ..world import AS_OF

TABLE = """
web:communications                  GET   ok    ok    ok    ok    404   404   404   own   login
web:communications                  POST  405   405   405   405   404   404   404   own   login
web:communication_new               GET   ok    403   ok    403   404   404   404   own   login
web:communication_new               POST  ok    403   ok    403   404   404   404   own   login
web:communication                   GET   ok    ok    ok    ok    404   404   404   404   login
web:communication                   POST  405   405   405   405   404   404   404   404   login
web:communication_send              GET   405   405   405   405   404   404   404   404   login
web:communication_send              POST  ok    403   ok    403   404   404   404   404   login
web:communication_requeue           GET   405   405   405   405   404   404   404   404   login
web:communication_requeue           POST  ok    403   ok    403   404   404   404   404   login
web:communication_attachment        GET   ok    ok    ok    ok    404   404   404   404   login
web:communication_attachment        POST  405   405   405   405   404   404   404   404   login
web:communication_letter            GET   ok    ok    ok    ok    404   404   404   404   login
web:communication_letter            POST  405   405   405   405   404   404   404   404   login
web:communication_unsubscribe       GET   ok    ok    ok    ok    ok    ok    ok    ok    ok
web:communication_unsubscribe       POST  ok    ok    ok    ok    ok    ok    ok    ok    ok
"""


def _recipient(side) -> Recipient:
    """A newsletter sent (the demo has none), by email and letter, to one establishment."""
    comm, made = Communication.objects.get_or_create(
        agency=side.agency,
        subject="Holiday grease",
        defaults={
            "kind": "newsletter",
            "channel": "both",
            "body": "Scrape plates.",
            "site": "http://testserver/",
            "as_of": AS_OF,
            "status": "complete",
            "total": 1,
            "done": 1,
            "sent": 1,
            "attachment_name": "tips.pdf",
        },
    )
    if made:
        comm.attachment.save("tips.pdf", ContentFile(b"%PDF-1.4 tips"))
    fse = side.agency.establishments.order_by("code").first()
    found, _ = Recipient.objects.get_or_create(
        communication=comm,
        establishment=fse,
        defaults={
            "position": 0,
            "state": "sent",
            "email": "op@example.org",
            "letter": True,
            "letter_pdf": b"%PDF-1.4 letter",
            "subject": comm.subject,
            "body": comm.body,
        },
    )
    return found


def _comm(side) -> dict:
    return {"pk": _recipient(side).communication_id}


def _letter(side) -> dict:
    found = _recipient(side)
    return {"pk": found.communication_id, "code": found.establishment.code}


def _token(side) -> dict:
    return {"token": unsubscribe.token(_recipient(side))}


RECORDS = {
    "web:communication": _comm,
    "web:communication_send": _comm,
    "web:communication_requeue": _comm,
    "web:communication_attachment": _comm,
    "web:communication_letter": _letter,
    "web:communication_unsubscribe": _token,
}

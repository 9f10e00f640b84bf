"""Sending a queued communication (a worker's task; a thread of the process when no broker is
set). Its recipients were fixed when it was confirmed, one row each; each is sent in its own
transaction that first claims the row (pending -> its outcome, only if still pending), writes
its audit row, then hands the email to the mail server: an email refused rolls the claim back
and the recipient is marked failed with the server's words.

- **Each recipient once, even restarted**: a run (or a second run of the same communication,
  queued again while the first still moves) takes only the rows still pending, and a row is
  claimed by one transaction only. A run killed leaves its done rows done; run again, it sends
  the rest. The one message that can go twice is the one in flight when the process dies
  after the mail server took it and before the commit; it carries the same Message-ID both
  times (`<communication-ID-ESTABLISHMENT@host>`), which mail systems recognise.
- **Newsletters** carry an unsubscribe link (and the List-Unsubscribe headers); an
  establishment that opted out is skipped. **Legal notices** carry none and skip no one.
- **No email address**: with email asked for, the establishment gets the letter instead,
  counted and shown as "letter only".
"""

from __future__ import annotations

import logging
import smtplib

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.core.mail.utils import DNS_NAME
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from fogkeeper.audit.services import audit_record

from . import merge, unsubscribe
from .documents import letter_pdf
from .models import Communication, NewsletterOptOut, Recipient

log = logging.getLogger(__name__)
BATCH = 100  # recipients read together, and between two writes of the progress
NO_EMAIL = "no email address"
OPTED_OUT = "opted out of newsletters"


def plan(comm: Communication, email: str, *, opted_out: bool) -> dict:
    """What is done for one establishment: its state, whether it is emailed and gets a
    letter, and why where it is not as asked."""
    if comm.is_newsletter and opted_out:
        return {"state": Recipient.SKIPPED, "email": False, "letter": False, "reason": OPTED_OUT}
    if comm.emails and not email:
        return {"state": Recipient.LETTER_ONLY, "email": False, "letter": True, "reason": NO_EMAIL}
    return {
        "state": Recipient.SENT,
        "email": comm.emails,
        "letter": comm.channel != Communication.EMAIL,
        "reason": "",
    }


def run_communication(pk: int) -> Communication | None:
    """Send the communication's pending recipients, a batch at a time, storing its progress
    after each; one not queued or running is left as it is."""
    with transaction.atomic():
        comm = (
            Communication.objects.select_for_update(of=("self",))
            .select_related("agency", "requested_by")
            .filter(pk=pk)
            .first()
        )
        if comm is None or not comm.underway:
            return comm
        comm.begin()
        comm.save(update_fields=["status", "started_at", "progress_at"])
    try:
        _send_all(comm)
    except Exception as e:  # kept for its page: what was sent stays sent, the rest pending
        log.exception("communication %s stopped", comm.pk)
        _count(comm)
        return comm.finish(Communication.FAILED, error=f"It stopped on an error: {e}")
    _count(comm)
    with transaction.atomic():
        audit_record(
            action="communication.complete",
            obj=comm,
            actor=comm.requested_by,
            agency=comm.agency,
            after=_counts(comm),
        )
        return comm.finish(Communication.COMPLETE)


def _send_all(comm: Communication) -> None:
    attachment = _attachment(comm)
    mail = get_connection()
    try:
        while batch := list(comm.recipients.filter(state=Recipient.PENDING)[:BATCH]):
            ids = [r.establishment_id for r in batch]
            values = merge.values_for(comm.agency, ids, comm.as_of)
            opted = set()
            if comm.is_newsletter:
                opted = set(
                    NewsletterOptOut.objects.filter(establishment_id__in=ids).values_list(
                        "establishment_id", flat=True
                    )
                )
            for recipient in batch:
                v = values[recipient.establishment_id]
                outcome = plan(comm, v["_email"], opted_out=recipient.establishment_id in opted)
                _deliver(comm, recipient, v, outcome, mail, attachment)
            _count(comm)
    finally:
        mail.close()


def _attachment(comm: Communication) -> bytes | None:
    if not comm.attachment:
        return None
    with comm.attachment.open("rb") as f:
        return f.read()


def _deliver(comm, recipient: Recipient, v: dict, outcome: dict, mail, attachment) -> None:
    """One recipient: its text merged, its letter made, then, in one transaction, the row
    claimed, the audit row written and the email handed over."""
    subject, body = merge.fill(comm.subject, v), merge.fill(comm.body, v)
    email = v["_email"] if outcome["email"] else ""
    message = _message(comm, recipient, subject, body, email, attachment) if email else None
    pdf = None
    if outcome["letter"]:
        pdf = letter_pdf(comm, v["_fse"], subject=subject, body=body, operator=v["operator_name"])
    fields = {
        "state": outcome["state"],
        "email": email,
        "letter": pdf is not None,
        "letter_pdf": pdf,
        "reason": outcome["reason"],
        "subject": subject[:300],
        "body": body,
        "sent_at": timezone.now(),
    }
    try:
        with transaction.atomic():
            if not _claim(comm, recipient, fields):
                return  # another run of it took this one
            if message is not None:
                mail.send_messages([message])
    except (smtplib.SMTPException, OSError) as e:
        mail.close()  # a fresh connection for the next one
        reason = f"the mail server refused it: {e}"[:300]
        failed = {
            **fields,
            "state": Recipient.FAILED,
            "email": "",
            "letter": False,
            "letter_pdf": None,
            "reason": reason,
        }
        with transaction.atomic():
            _claim(comm, recipient, failed)


def _claim(comm, recipient: Recipient, fields: dict) -> bool:
    claimed = Recipient.objects.filter(pk=recipient.pk, state=Recipient.PENDING).update(**fields)
    if claimed:
        for name, value in fields.items():
            setattr(recipient, name, value)
        after = {
            "communication": comm.pk,
            "subject": fields["subject"],
            "state": fields["state"],
            "email": fields["email"],
            "letter": fields["letter"],
            "reason": fields["reason"],
        }
        audit_record(
            action="communication.send",
            obj=recipient,
            actor=comm.requested_by,
            agency=comm.agency,
            after=after,
        )
    return bool(claimed)


def _message(comm, recipient: Recipient, subject: str, body: str, email: str, attachment):
    headers = {"Message-ID": f"<communication-{comm.pk}-{recipient.establishment_id}@{DNS_NAME}>"}
    if comm.is_newsletter:
        url = unsubscribe.link(comm.site, recipient)
        headers["List-Unsubscribe"] = f"<{url}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        body += (
            f"\n\n-- \nA newsletter of {comm.agency.name}. To receive no more newsletters at "
            f"this establishment: {url}\nLegal notices are sent whatever you choose."
        )
    message = EmailMessage(
        subject=" ".join(subject.split()),
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[email],
        headers=headers,
    )
    if attachment is not None:
        message.attach(comm.attachment_name or "attachment.pdf", attachment, "application/pdf")
    return message


def _counts(comm: Communication) -> dict[str, int]:
    names = ("total", "done", "sent", "letter_only", "skipped", "failed")
    return {name: getattr(comm, name) for name in names}


def _count(comm: Communication) -> None:
    """The run's counts from its recipients' rows (right whatever earlier runs did), saved."""
    rows = comm.recipients.values_list("state").annotate(n=Count("pk")).order_by()
    by_state = dict(rows)
    comm.sent = by_state.get(Recipient.SENT, 0)
    comm.letter_only = by_state.get(Recipient.LETTER_ONLY, 0)
    comm.skipped = by_state.get(Recipient.SKIPPED, 0)
    comm.failed = by_state.get(Recipient.FAILED, 0)
    comm.done = sum(by_state.values()) - by_state.get(Recipient.PENDING, 0)
    comm.progress_at = timezone.now()
    comm.save(update_fields=["sent", "letter_only", "skipped", "failed", "done", "progress_at"])

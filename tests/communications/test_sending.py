"""A communication sent: each establishment once, with its own values; a letter where there is
no email address; a newsletter with its unsubscribe link, a legal notice without; each
recipient once even when the run is killed half-way and run again."""

from __future__ import annotations

import smtplib
from io import StringIO

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.mail.backends.locmem import EmailBackend
from django.core.management import call_command

from fogkeeper.audit.models import AuditEvent
from fogkeeper.communications.delivery import run_communication
from fogkeeper.communications.models import Communication, NewsletterOptOut, Recipient
from fogkeeper.enforcement.letter_filters import longdate

from .records import AS_OF, DiesAfter, Killed, draft, program, send

pytestmark = pytest.mark.django_db
EMAILED = ["anchor@example.org", "bay@example.org", "dune@example.org"]


def _to(outbox) -> list[str]:
    return sorted(address for m in outbox for address in m.to)


def test_it_emails_each_establishment_once_with_its_own_values_and_no_unsubscribe(
    django_capture_on_commit_callbacks,
):
    sc = program()
    comm = send(draft(sc), django_capture_on_commit_callbacks)
    assert _to(mail.outbox) == EMAILED
    anchor = next(m for m in mail.outbox if m.to == ["anchor@example.org"])
    due = sc.establishments.get(code="FSE-1").compliance.next_due
    assert anchor.subject == "Grease season: Anchor Diner"
    assert anchor.body == f"Dear Anchor Diner LLC,\nYour next date is {longdate(due)}."
    assert "List-Unsubscribe" not in anchor.extra_headers
    assert (comm.status, comm.total, comm.sent, comm.letter_only) == ("complete", 4, 3, 1)


def test_it_makes_a_letter_for_an_establishment_without_an_email_address_and_says_so(
    django_capture_on_commit_callbacks,
):
    sc = program()
    comm = send(draft(sc), django_capture_on_commit_callbacks)
    cove = comm.recipients.get(establishment__code="FSE-3")
    assert (cove.state, cove.email, cove.letter) == ("letter_only", "", True)
    assert bytes(cove.letter_pdf).startswith(b"%PDF-")
    assert cove.delivered() == "Letter for the post (no email address)"


def test_it_writes_an_audit_row_of_each_send_in_the_establishments_trail(
    django_capture_on_commit_callbacks,
):
    sc = program()
    comm = send(draft(sc), django_capture_on_commit_callbacks)
    rows = AuditEvent.objects.filter(action="communication.send", agency=sc)
    codes = sorted(
        sc.establishments.filter(pk__in=rows.values("establishment")).values_list("code", flat=True)
    )
    assert codes == ["FSE-1", "FSE-2", "FSE-3", "FSE-4"]
    assert AuditEvent.objects.filter(action="communication.complete", object_id=comm.pk).exists()


def test_it_sends_only_to_the_establishments_the_list_filter_chooses(
    django_capture_on_commit_callbacks,
):
    sc = program()
    comm = send(draft(sc, filters={"q": "Bay"}), django_capture_on_commit_callbacks)
    assert _to(mail.outbox) == ["bay@example.org"]
    assert comm.total == 1


def test_a_newsletter_carries_an_unsubscribe_link_and_skips_who_opted_out(
    django_capture_on_commit_callbacks,
):
    sc = program()
    NewsletterOptOut.objects.create(establishment=sc.establishments.get(code="FSE-2"))
    comm = send(draft(sc, kind="newsletter"), django_capture_on_commit_callbacks)
    assert _to(mail.outbox) == ["anchor@example.org", "dune@example.org"]
    message = mail.outbox[0]
    link = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert link.startswith("https://fog.example.org/communications/unsubscribe/")
    assert f"To receive no more newsletters at this establishment: {link}" in message.body
    bay = comm.recipients.get(establishment__code="FSE-2")
    assert (bay.state, bay.reason) == ("skipped", "opted out of newsletters")
    assert comm.skipped == 1


def test_a_legal_notice_still_goes_to_an_establishment_that_opted_out_of_newsletters(
    django_capture_on_commit_callbacks,
):
    sc = program()
    NewsletterOptOut.objects.create(establishment=sc.establishments.get(code="FSE-2"))
    send(draft(sc, kind="legal_notice"), django_capture_on_commit_callbacks)
    assert "bay@example.org" in _to(mail.outbox)


def test_it_attaches_the_pdf_to_each_email(django_capture_on_commit_callbacks):
    sc = program()
    pdf = SimpleUploadedFile("new-rules.pdf", b"%PDF-1.7\nrules")
    send(draft(sc, attachment=pdf), django_capture_on_commit_callbacks)
    assert {m.attachments[0][0] for m in mail.outbox} == {"new-rules.pdf"}


def test_letters_only_go_by_post_to_every_establishment(django_capture_on_commit_callbacks):
    sc = program()
    comm = send(draft(sc, channel="letter"), django_capture_on_commit_callbacks)
    assert mail.outbox == []
    assert comm.recipients.filter(state="sent", letter=True).count() == 4


def test_a_run_killed_half_way_and_run_again_sends_each_recipient_once(
    settings,
    django_capture_on_commit_callbacks,
):
    settings.EMAIL_BACKEND = "tests.communications.records.DiesAfter"
    DiesAfter.after, DiesAfter.handed = 2, 0
    sc = program()
    with pytest.raises(Killed):
        send(draft(sc), django_capture_on_commit_callbacks)
    comm = Communication.objects.get()
    assert comm.status == "running" and _to(mail.outbox) == EMAILED[:2]  # and Cove's letter
    DiesAfter.after = None
    out = StringIO()
    call_command("resume_communications", stdout=out)
    assert _to(mail.outbox) == EMAILED
    comm.refresh_from_db()
    assert (comm.status, comm.done, comm.sent, comm.letter_only) == ("complete", 4, 3, 1)
    assert "1 more done; 3 sent, 1 letter only, 0 skipped, 0 failed of 4." in out.getvalue()
    call_command("resume_communications", stdout=out)
    assert out.getvalue().endswith("No communication is unfinished.\n")


def test_a_second_run_of_a_communication_sends_nothing_more(django_capture_on_commit_callbacks):
    sc = program()
    comm = send(draft(sc), django_capture_on_commit_callbacks)
    Communication.objects.filter(pk=comm.pk).update(status="running")  # queued twice
    again = run_communication(comm.pk)
    assert len(mail.outbox) == 3 and again.sent == 3
    assert Recipient.objects.filter(communication=comm).count() == 4


class RefusesBay(EmailBackend):
    def send_messages(self, messages):
        if messages[0].to == ["bay@example.org"]:
            raise smtplib.SMTPRecipientsRefused({"bay@example.org": (550, b"no such user")})
        return super().send_messages(messages)


def test_an_address_the_mail_server_refuses_is_failed_with_its_words_and_the_rest_sent(
    settings,
    django_capture_on_commit_callbacks,
):
    settings.EMAIL_BACKEND = "tests.communications.test_sending.RefusesBay"
    sc = program()
    comm = send(draft(sc), django_capture_on_commit_callbacks)
    assert _to(mail.outbox) == ["anchor@example.org", "dune@example.org"]
    bay = comm.recipients.get(establishment__code="FSE-2")
    assert bay.state == "failed"
    assert bay.reason.startswith("the mail server refused it: {'bay@example.org': (550")
    assert (comm.status, comm.failed, comm.sent) == ("complete", 1, 2)


def test_the_letters_are_dated_the_day_it_was_sent(django_capture_on_commit_callbacks):
    sc = program()
    comm = send(draft(sc), django_capture_on_commit_callbacks)
    assert comm.as_of == AS_OF

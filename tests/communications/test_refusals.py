"""Every refusal says what is wrong in words and sends nothing: no establishment matches, a
merge field that does not exist, an attachment too large (or not a PDF), a communication
confirmed twice."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from fogkeeper.audit.models import AuditEvent
from fogkeeper.communications.models import Communication, Recipient
from fogkeeper.communications.services import communication_send
from fogkeeper.web.communications.forms import chosen

from .records import AS_OF, draft, program, send

pytestmark = pytest.mark.django_db


def _nothing_kept_or_sent():
    assert not Communication.objects.exists()
    assert not Recipient.objects.exists()
    assert mail.outbox == []


def test_it_refuses_filters_that_match_no_establishment():
    sc = program()
    with pytest.raises(ValidationError) as refused:
        draft(sc, filters={"q": "no such place"})
    assert refused.value.message_dict["__all__"] == [
        "No establishment open today matches these filters, so it would go to no one. "
        "Nothing was sent. Change the filters."
    ]
    _nothing_kept_or_sent()


def test_it_leaves_closed_establishments_out_so_a_filter_of_only_those_matches_none():
    sc = program()
    with pytest.raises(ValidationError):
        draft(sc, filters={"q": "Closed Grill"})
    _nothing_kept_or_sent()


def test_it_refuses_a_merge_field_that_does_not_exist_naming_it():
    sc = program()
    with pytest.raises(ValidationError) as refused:
        draft(sc, subject="Hello {establishment_nmae}", body="Dear {owner},")
    errors = refused.value.message_dict
    assert errors["subject"][0].startswith(
        "The subject names the merge field {establishment_nmae}, which does not exist."
    )
    assert errors["body"][0].startswith("The body names the merge field {owner}")
    _nothing_kept_or_sent()


def test_it_refuses_an_attachment_over_the_limit_saying_the_limit(settings):
    settings.FOGKEEPER_COMMUNICATION_MAX_ATTACHMENT_BYTES = 1024 * 1024
    sc = program()
    big = SimpleUploadedFile("rules.pdf", b"%PDF-1.7\n" + b"0" * (1024 * 1024 + 500_000))
    with pytest.raises(ValidationError) as refused:
        draft(sc, attachment=big)
    assert refused.value.message_dict["attachment"] == [
        "The attachment is 1.5 MB; the largest accepted is 1 MB. Nothing was sent."
    ]
    _nothing_kept_or_sent()


def test_it_refuses_an_attachment_that_is_not_a_pdf():
    sc = program()
    with pytest.raises(ValidationError) as refused:
        draft(sc, attachment=SimpleUploadedFile("rules.pdf", b"<html>not a pdf</html>"))
    assert refused.value.message_dict["attachment"] == [
        "The attachment must be a PDF. Nothing was sent."
    ]
    _nothing_kept_or_sent()


def test_it_refuses_at_confirmation_when_no_establishment_matches_any_more(
    django_capture_on_commit_callbacks,
):
    sc = program()
    comm = draft(sc, filters={"q": "Anchor"})
    sc.establishments.filter(code="FSE-1").update(closed_on=AS_OF)
    with pytest.raises(ValidationError) as refused:
        send(comm, django_capture_on_commit_callbacks)
    assert "it would go to no one. Nothing was sent." in refused.value.messages[0]
    comm.refresh_from_db()
    assert comm.is_draft and not comm.recipients.exists() and mail.outbox == []


def test_it_sends_a_communication_once_and_refuses_to_confirm_it_again(
    django_capture_on_commit_callbacks,
):
    sc = program()
    comm = send(draft(sc), django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 3
    with pytest.raises(ValidationError) as refused:
        communication_send(communication=comm, chosen=chosen(sc, {}), on=AS_OF)
    assert refused.value.messages == [
        "This communication was confirmed already (sent): it is sent once. Nothing more was sent."
    ]
    assert len(mail.outbox) == 3
    assert AuditEvent.objects.filter(action="communication.queue").count() == 1

"""The pages of letters and emails to many establishments: the manager writes one to a filter
of the establishment list, sees it for three establishments, sends it and sees what was done;
the establishment's page lists it; refusals are said on the form and send nothing; the
inspector may read but not write; a newsletter's unsubscribe link works without signing in."""

from __future__ import annotations

import pytest
import time_machine
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile

from fogkeeper.communications import unsubscribe
from fogkeeper.communications.models import Communication, NewsletterOptOut
from tests.web.people import make_user

from .records import DiesAfter, draft, program, send

pytestmark = pytest.mark.django_db
NOW = "2026-06-01 18:00 +00:00"
MESSAGE = {
    "kind": "legal_notice",
    "channel": "email",
    "subject": "New rule for {establishment_name}",
    "body": "Dear {operator_name},\nThe new rule applies from July 1.",
}


@pytest.fixture(autouse=True)
def clock():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def sc():
    return program()


@pytest.fixture
def manager(client, sc):
    client.force_login(make_user("maria", sc, role="manager"))
    return client


def test_the_manager_writes_previews_and_sends_a_letter_to_a_filter_of_the_list(
    manager,
    sc,
    django_capture_on_commit_callbacks,
):
    response = manager.post("/communications/new/", {**MESSAGE, "q": "Ocean"})
    comm = Communication.objects.get()
    assert response.status_code == 302 and response.url == f"/communications/{comm.pk}/"
    page = manager.get(response.url).content.decode()
    assert "It would go to 4 establishments today; 1 of them has no email address" in page
    assert page.count('class="preview"') == 3
    assert "New rule for Anchor Diner" in page and "Dear Bay Bistro LLC," in page
    assert "Send it to 4 establishments" in page
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        response = manager.post(f"/communications/{comm.pk}/send/")
    page = manager.get(response.url).content.decode()
    assert "Sent to 4 establishments: 3 sent as asked; 1 by letter only" in page
    assert len(mail.outbox) == 3


def test_the_establishment_page_lists_what_was_sent_to_it(
    manager,
    sc,
    django_capture_on_commit_callbacks,
):
    comm = send(draft(sc), django_capture_on_commit_callbacks)
    page = manager.get("/establishments/FSE-3/").content.decode()
    assert "Grease season: Cove Cafe" in page
    assert "Letter for the post (no email address)" in page
    letter = manager.get(f"/communications/{comm.pk}/letters/FSE-3.pdf")
    assert letter["Content-Type"] == "application/pdf" and letter.content.startswith(b"%PDF-")


def test_a_merge_field_that_does_not_exist_is_refused_on_the_form_naming_it(manager):
    response = manager.post("/communications/new/", {**MESSAGE, "body": "Dear {owner_name},"})
    assert response.status_code == 400
    assert "The body names the merge field {owner_name}, which does not exist." in (
        response.content.decode()
    )
    assert not Communication.objects.exists() and mail.outbox == []


def test_an_attachment_too_large_is_refused_saying_the_limit(manager, settings):
    settings.FOGKEEPER_COMMUNICATION_MAX_ATTACHMENT_BYTES = 100
    pdf = SimpleUploadedFile("rules.pdf", b"%PDF-1.7\n" + b"0" * 300)
    response = manager.post("/communications/new/", {**MESSAGE, "attachment": pdf})
    assert response.status_code == 400
    assert (
        "The attachment is 309 bytes; the largest accepted is 100 bytes. Nothing was sent."
        in response.content.decode()
    )
    assert not Communication.objects.exists()


def test_filters_matching_no_establishment_are_refused_in_words(manager):
    response = manager.post("/communications/new/", {**MESSAGE, "q": "nowhere at all"})
    assert response.status_code == 400
    assert "No establishment open today matches these filters" in response.content.decode()
    assert not Communication.objects.exists()


def test_the_form_starts_from_the_filters_of_the_establishment_list(manager):
    listed = manager.get("/establishments/?status=non_compliant").content.decode()
    assert 'href="/communications/new/?status=non_compliant"' in listed
    page = manager.get("/communications/new/?status=non_compliant").content.decode()
    assert '<option value="non_compliant" selected>' in page


def test_an_inspector_reads_the_communications_but_may_not_write_one(client, sc):
    client.force_login(make_user("ines", sc, role="inspector"))
    assert client.get("/communications/").status_code == 200
    assert client.get("/communications/new/").status_code == 403
    assert "Write to these establishments" not in client.get("/establishments/").content.decode()


def test_the_unsubscribe_link_records_the_opt_out_without_signing_in(
    client,
    sc,
    django_capture_on_commit_callbacks,
):
    comm = send(draft(sc, kind="newsletter"), django_capture_on_commit_callbacks)
    recipient = comm.recipients.get(establishment__code="FSE-1")
    url = f"/communications/unsubscribe/{unsubscribe.token(recipient)}/"
    assert "Send no more newsletters" in client.get(url).content.decode()
    assert not NewsletterOptOut.objects.exists()  # a link opened is not a choice made
    page = client.post(url).content.decode()
    assert "sends no more newsletters to Anchor Diner" in page
    assert NewsletterOptOut.objects.get().establishment.code == "FSE-1"
    assert client.get(f"{url[:-5]}xxxx/").status_code == 404


def test_a_legal_notice_has_no_unsubscribe_even_with_a_token_made_for_it(
    client,
    sc,
    django_capture_on_commit_callbacks,
):
    comm = send(draft(sc), django_capture_on_commit_callbacks)
    recipient = comm.recipients.get(establishment__code="FSE-1")
    response = client.post(f"/communications/unsubscribe/{unsubscribe.token(recipient)}/")
    assert response.status_code == 404 and not NewsletterOptOut.objects.exists()


def test_a_communication_stopped_on_an_error_is_carried_on_from_its_page(
    manager,
    sc,
    settings,
    django_capture_on_commit_callbacks,
):
    settings.EMAIL_BACKEND = "tests.communications.records.DiesAfter"
    DiesAfter.after, DiesAfter.handed, DiesAfter.error = 1, 0, RuntimeError
    comm = send(draft(sc), django_capture_on_commit_callbacks)
    page = manager.get(f"/communications/{comm.pk}/").content.decode()
    assert (
        "Stopped unfinished after 1 of 4 establishments. It stopped on an error: the mail "
        "spool is full" in page
    )
    DiesAfter.after = None
    with django_capture_on_commit_callbacks(execute=True):
        manager.post(f"/communications/{comm.pk}/requeue/")
    comm.refresh_from_db()
    assert (comm.status, comm.sent, comm.letter_only) == ("complete", 3, 1)
    assert sorted(m.to[0] for m in mail.outbox) == [
        "anchor@example.org",
        "bay@example.org",
        "dune@example.org",
    ]

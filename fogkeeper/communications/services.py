"""Writing a communication and sending it: a draft is checked (its merge fields, its
attachment, that some establishment matches its filters) and previewed for three real
recipients; confirmed, its recipients are fixed (one row each, in one transaction with the
queueing) and a worker sends them (delivery.py). Every refusal says what is wrong, in words,
and leaves nothing sent.

The establishments (`chosen`) are the establishment list's own for the communication's
filters, as the pages choose them (web/communications/views.py: web.selectors'
establishment_list, a layer above); here those closed on the communication's date are left
out."""

from __future__ import annotations

import logging
from datetime import date
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from fogkeeper.audit.services import audit_record
from fogkeeper.queue import beside
from fogkeeper.registry.models import Agency, OperatorTenure
from fogkeeper.registry.services import Actor, Errors, add_error, refuse

from . import merge
from .models import Communication, NewsletterOptOut, Recipient

log = logging.getLogger(__name__)
PREVIEWED = 3  # recipients the preview shows
NOTHING_SENT = "Nothing was sent."


def max_attachment_bytes() -> int:
    return settings.FOGKEEPER_COMMUNICATION_MAX_ATTACHMENT_BYTES


def size_words(n: int) -> str:
    """A size as people say it: 2 MB, 1.5 MB, 300 kB, 90 bytes."""
    for unit, size in (("MB", 1024 * 1024), ("kB", 1024)):
        if n >= size:
            return f"{n / size:.1f}".removesuffix(".0") + f" {unit}"
    return f"{n} bytes"


def recipients(chosen: QuerySet, on: date) -> QuerySet:
    """The establishments `chosen` that are open on `on`, by name."""
    still_open = Q(closed_on__isnull=True) | Q(closed_on__gt=on)
    return chosen.filter(still_open).order_by("name", "code")


def _check_text(errors: Errors, subject: str, body: str) -> None:
    for field, text in (("subject", subject), ("body", body)):
        for problem in merge.problems(text, field):
            add_error(errors, field, problem)


def _check_attachment(errors: Errors, upload: UploadedFile | None) -> None:
    if upload is None:
        return
    limit = max_attachment_bytes()
    size = upload.size or 0  # an uploaded file has its size
    if size > limit:
        add_error(
            errors,
            "attachment",
            f"The attachment is {size_words(size)}; the "
            f"largest accepted is {size_words(limit)}. {NOTHING_SENT}",
        )
        return
    upload.seek(0)
    head = upload.read(5)
    upload.seek(0)
    if head != b"%PDF-":
        add_error(errors, "attachment", f"The attachment must be a PDF. {NOTHING_SENT}")


def _check_recipients(errors: Errors, chosen: QuerySet, on: date) -> int:
    count = recipients(chosen, on).count()
    if count == 0:
        add_error(
            errors,
            "__all__",
            "No establishment open today matches these filters, so "
            f"it would go to no one. {NOTHING_SENT} Change the filters.",
        )
    return count


def communication_draft(
    *,
    agency: Agency,
    kind: str,
    channel: str,
    subject: str,
    body: str,
    filters: dict[str, str],
    chosen: QuerySet,
    site: str,
    as_of: date,
    attachment: UploadedFile | None = None,
    remove_attachment: bool = False,
    draft: Communication | None = None,
    actor: Actor = None,
) -> Communication:
    """A draft (a new one, or `draft` changed) to the establishments `filters` choose
    (`chosen`), once its merge fields, its attachment and its recipients are right; refused
    with every problem otherwise."""
    errors: Errors = {}
    _check_text(errors, subject, body)
    _check_attachment(errors, attachment)
    _check_recipients(errors, chosen, as_of)
    if draft is not None and not draft.is_draft:
        add_error(errors, "__all__", "This communication was sent already; write a new one.")
    refuse(errors)
    comm = draft or Communication(agency=agency, requested_by=_user(actor))
    before = audit_snapshot(comm) if draft else None
    comm.kind, comm.channel, comm.subject, comm.body = kind, channel, subject, body
    comm.filters, comm.site, comm.as_of = dict(filters), site, as_of
    if attachment is not None:
        name = attachment.name or ""  # an uploaded file has its name
        comm.attachment.save(name, attachment, save=False)
        comm.attachment_name = name
    elif remove_attachment:
        comm.attachment, comm.attachment_name = "", ""
    comm.full_clean()
    with transaction.atomic():
        comm.save()
        audit_record(
            action="communication.draft",
            obj=comm,
            actor=actor,
            agency=agency,
            before=before,
            after=audit_snapshot(comm),
        )
    return comm


def audit_snapshot(comm: Communication) -> dict[str, Any]:
    return {
        "kind": comm.kind,
        "channel": comm.channel,
        "subject": comm.subject,
        "body": comm.body,
        "filters": comm.filters,
        "attachment": comm.attachment_name,
        "status": comm.status,
        "total": comm.total,
    }


def _user(actor: Actor):
    return actor if getattr(actor, "is_authenticated", False) else None


def reach(chosen: QuerySet, on: date) -> dict[str, int]:
    """How many establishments of `chosen` a draft goes to on `on`, how many of them have no
    email address of their operator, and how many opted out of newsletters."""
    current = Q(until__isnull=True) | Q(until__gte=on)
    emailed = OperatorTenure.objects.filter(current, establishment=OuterRef("pk"), since__lte=on)
    emailed = emailed.exclude(operator__email="")
    opted = NewsletterOptOut.objects.filter(establishment=OuterRef("pk"))
    return recipients(chosen, on).aggregate(
        total=Count("pk"),
        without_email=Count("pk", filter=~Exists(emailed)),
        opted_out=Count("pk", filter=Exists(opted)),
    )


def preview(comm: Communication, chosen: QuerySet, on: date, n: int = PREVIEWED) -> list[dict]:
    """The first `n` establishments the draft goes to on `on`, each with its subject and body
    merged, the address it would be emailed to, and what would be done (delivery.plan)."""
    from .delivery import plan

    ids = list(recipients(chosen, on).values_list("pk", flat=True)[:n])
    values = merge.values_for(comm.agency, ids, on)
    opted = set(
        NewsletterOptOut.objects.filter(establishment_id__in=ids).values_list(
            "establishment_id", flat=True
        )
    )
    shown = []
    for pk in ids:
        v = values[pk]
        shown.append(
            {
                "establishment": v["_fse"],
                "email": v["_email"],
                "subject": merge.fill(comm.subject, v),
                "body": merge.fill(comm.body, v),
                "plan": plan(comm, v["_email"], opted_out=pk in opted),
            }
        )
    return shown


def communication_send(
    *, communication: Communication, chosen: QuerySet, on: date, actor: Actor = None
) -> Communication:
    """Fix the draft's recipients (the establishments its filters choose, `chosen`, open on
    `on`) and queue it; refused, sending nothing, when it is not a draft any more, its text
    names a merge field that does not exist, or no establishment matches."""
    errors: Errors = {}
    with transaction.atomic():
        comm = Communication.objects.select_for_update().get(pk=communication.pk)
        if not comm.is_draft:
            state = comm.get_status_display().lower()
            add_error(
                errors,
                "__all__",
                f"This communication was confirmed already ({state}): "
                "it is sent once. Nothing more was sent.",
            )
        _check_text(errors, comm.subject, comm.body)
        refuse(errors)
        ids = list(recipients(chosen, on).values_list("pk", flat=True))
        if not ids:
            _check_recipients(errors, chosen, on)
            refuse(errors)
        Recipient.objects.bulk_create(
            [
                Recipient(communication=comm, establishment_id=pk, position=n)
                for n, pk in enumerate(ids)
            ],
            batch_size=1000,
        )
        now = timezone.now()
        comm.status, comm.total, comm.as_of = Communication.QUEUED, len(ids), on
        comm.queued_at = comm.progress_at = now
        comm.save()
        audit_record(
            action="communication.queue",
            obj=comm,
            actor=actor,
            agency=comm.agency,
            after=audit_snapshot(comm),
        )
        transaction.on_commit(lambda: queue(comm))
    return comm


def communication_resume(*, communication: Communication, actor: Actor = None) -> bool:
    """Queue again a communication that stopped (its worker gone, or an error) or stalled; it
    sends only to the establishments not sent to yet. False when it is moving, or finished."""
    with transaction.atomic():
        comm = Communication.objects.select_for_update().get(pk=communication.pk)
        stopped = (
            comm.status == Communication.FAILED
            and comm.recipients.filter(state=Recipient.PENDING).exists()
        )
        if not (stopped or comm.stalled()):
            return False
        comm.status, comm.error, comm.finished_at = Communication.QUEUED, "", None
        comm.progress_at = timezone.now()
        comm.save(update_fields=["status", "error", "finished_at", "progress_at"])
        audit_record(
            action="communication.requeue",
            obj=comm,
            actor=actor,
            agency=comm.agency,
            after=audit_snapshot(comm),
        )
        transaction.on_commit(lambda: queue(comm))
    return True


def queue(comm: Communication) -> None:
    """Hand the queued communication to a worker, or to a thread of this process when no
    broker is set (fogkeeper.queue.beside)."""
    beside("fogkeeper.communications.send", comm.pk, record=comm)

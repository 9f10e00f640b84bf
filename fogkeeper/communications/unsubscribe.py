"""The unsubscribe link of a newsletter: a signed token naming the recipient row it was sent
to, so that the link alone (no sign-in) records that the establishment wants no more
newsletters. Legal notices carry no such link and are sent whatever was chosen."""

from __future__ import annotations

from django.core import signing
from django.db import IntegrityError, transaction
from django.urls import reverse

from fogkeeper.audit.services import audit_record

from .models import NewsletterOptOut, Recipient

SALT = "fogkeeper.communications.unsubscribe"


def token(recipient: Recipient) -> str:
    return signing.dumps(recipient.pk, salt=SALT)


def link(site: str, recipient: Recipient) -> str:
    return site.rstrip("/") + reverse("web:communication_unsubscribe", args=[token(recipient)])


def recipient_of(value: str) -> Recipient | None:
    """The recipient a token was made for; None for a token altered or made elsewhere."""
    try:
        pk = signing.loads(value, salt=SALT)
    except signing.BadSignature:
        return None
    return (
        Recipient.objects.filter(pk=pk)
        .select_related("establishment", "communication__agency")
        .first()
    )


def opted_out(recipient: Recipient) -> NewsletterOptOut | None:
    return NewsletterOptOut.objects.filter(establishment=recipient.establishment_id).first()


def opt_out(recipient: Recipient) -> NewsletterOptOut:
    """Record that the recipient's establishment wants no more newsletters (once: the same link
    followed again changes nothing), with an audit row."""
    found = opted_out(recipient)
    if found is not None:
        return found
    try:
        with transaction.atomic():
            found = NewsletterOptOut.objects.create(
                establishment=recipient.establishment,
                email=recipient.email,
                communication=recipient.communication,
            )
            audit_record(
                action="newsletter.opt_out", obj=found, agency=recipient.communication.agency
            )
    except IntegrityError:  # the same link followed twice at once
        found = opted_out(recipient)
        assert found is not None  # the other request's
        return found
    return found

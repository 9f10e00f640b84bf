"""Reads of the communications for the pages."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import Recipient


def sent_to(establishment) -> QuerySet:
    """What was sent to the establishment (or refused, and why), newest first, without the
    letters' bytes."""
    return (
        Recipient.objects.filter(establishment=establishment)
        .exclude(state=Recipient.PENDING)
        .select_related("communication")
        .defer("letter_pdf", "body")
        .order_by("-sent_at", "-pk")
    )

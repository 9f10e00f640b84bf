"""An inspection photo's thumbnail, made once after the photo is stored (photos.py); an
inspection's receipt, emailed to the operator once after it is stored (receipts.py)."""

from __future__ import annotations

from celery import shared_task
from django.db import transaction

from fogkeeper.queue import enqueue

from .photos import thumbnail_make
from .receipts import receipt_send


@shared_task(name="fogkeeper.inspections.thumbnail")
def photo_thumbnail(photo_id: int) -> bool:
    """Make the thumbnail of the photo `photo_id` unless it has one."""
    return thumbnail_make(photo_id)


@shared_task(name="fogkeeper.inspections.receipt")
def inspection_receipt(inspection_id: int) -> bool:
    """Email the receipt of the inspection `inspection_id` to the operator, unless sent."""
    return receipt_send(inspection_id)


def receipt_queue(inspection) -> None:
    """Email the receipt once the transaction that stores `inspection` commits."""
    inspection_id = inspection.pk
    transaction.on_commit(lambda: enqueue("fogkeeper.inspections.receipt", inspection_id))

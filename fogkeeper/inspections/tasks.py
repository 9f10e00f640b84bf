"""An inspection photo's thumbnail, made once after the photo is stored (photos.py)."""

from __future__ import annotations

from celery import shared_task

from .photos import thumbnail_make


@shared_task(name="fogkeeper.inspections.thumbnail")
def photo_thumbnail(photo_id: int) -> bool:
    """Make the thumbnail of the photo `photo_id` unless it has one."""
    return thumbnail_make(photo_id)

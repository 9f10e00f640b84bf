"""Inspection photos: checked before they are kept, and their thumbnail made once.

A photo is a JPEG, PNG or WebP image by what its bytes decode as (PHOTO_FORMATS), never by
its name: anything else is refused in words. It is refused, naming the limit, when its file
is larger than
FOGKEEPER_PHOTO_MAX_BYTES or its header declares more pixels than FOGKEEPER_PHOTO_MAX_PIXELS;
the header is all that is read (Image.open decodes nothing), so a small file declaring
10,000 megapixels costs nothing to refuse. Pillow's own bomb limit (Image.MAX_IMAGE_PIXELS) is
set to the same number (InspectionsConfig.ready), so no Image.open elsewhere decodes more.

The thumbnail (a small upright JPEG, stored next to the photo) is made once, after the photo
is stored: a task queued when the transaction commits (tasks.py: on a worker when a broker is
set, inline otherwise). The pages serve the stored thumbnail and never decode a photo.
"""

from __future__ import annotations

import io
import logging
import re
import warnings
from pathlib import PurePosixPath

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.template.defaultfilters import filesizeformat
from PIL import Image, ImageOps, UnidentifiedImageError

from fogkeeper.queue import enqueue

from .models import InspectionPhoto

log = logging.getLogger(__name__)
THUMBNAIL = (320, 320)
# What a photo may be, by what its bytes decode as, never by its name: no other of Pillow's
# plugins is ever asked to open a photo (its EPS plugin hands the file to Ghostscript).
PHOTO_FORMATS = ("JPEG", "PNG", "WEBP")
_PIXELS = re.compile(r"Image size \((\d+) pixels\)")


def photo_problem(file) -> str | None:
    """Why the uploaded `file` is refused as a photo (its size, its pixels), or None."""
    name = PurePosixPath(getattr(file, "name", "") or "the photo").name
    largest = settings.FOGKEEPER_PHOTO_MAX_BYTES
    size = getattr(file, "size", None)
    if size is not None and size > largest:
        return (
            f"{name} is {filesizeformat(size)}; a photo may be at most "
            f"{filesizeformat(largest)}. Take it at a lower resolution, or reduce it, and add "
            "it again."
        )
    most = settings.FOGKEEPER_PHOTO_MAX_PIXELS
    pixels = _declared_pixels(file)
    if pixels is None:
        return (
            f"{name} is not a photo: a JPEG, PNG or WebP image is accepted, by what the file "
            "holds whatever its name."
        )
    if pixels <= most:
        return None
    return (
        f"{name} is {pixels / 1e6:,.0f} megapixels; a photo may have at most "
        f"{most / 1e6:,.0f} megapixels. Take it at a lower resolution, or reduce it, and add it "
        "again."
    )


def _declared_pixels(file) -> int | None:
    """Width x height as the file's header declares them; None when it is no JPEG, PNG or
    WebP image."""
    start = file.tell() if hasattr(file, "tell") else 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(file, formats=PHOTO_FORMATS) as image:  # reads the header only
                width, height = image.size
        return width * height
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        found = _PIXELS.search(str(exc))
        return int(found[1]) if found else settings.FOGKEEPER_PHOTO_MAX_PIXELS + 1
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        return None
    finally:
        if hasattr(file, "seek"):
            file.seek(start)


def thumbnail_queue(photo: InspectionPhoto) -> None:
    """Make the photo's thumbnail once the transaction that stores it commits."""
    photo_id = photo.pk
    transaction.on_commit(lambda: enqueue("fogkeeper.inspections.thumbnail", photo_id))


def thumbnail_make(photo_id: int) -> bool:
    """Make and store the thumbnail of the photo `photo_id` unless it has one; True when this
    call stored it. Safe to run twice (a task may be redone)."""
    photo = InspectionPhoto.objects.filter(pk=photo_id).first()
    if photo is None or photo.thumbnail:
        return False
    small = thumbnail_bytes(photo)
    if small is None:
        return False
    photo.thumbnail.save("thumbnail.jpg", ContentFile(small), save=False)
    stored = InspectionPhoto.objects.filter(pk=photo_id, thumbnail="").update(
        thumbnail=photo.thumbnail.name
    )
    if not stored:  # another run stored one meanwhile: keep that one
        photo.thumbnail.storage.delete(photo.thumbnail.name or "")
    return bool(stored)


def thumbnail_bytes(photo: InspectionPhoto) -> bytes | None:
    """The photo as a small upright JPEG (THUMBNAIL), or None when it cannot be read."""
    try:
        with photo.image.open("rb") as stream, Image.open(stream, formats=PHOTO_FORMATS) as image:
            image.draft("RGB", THUMBNAIL)  # a JPEG decodes at a fraction of its size
            small = ImageOps.exif_transpose(image).convert("RGB")
            small.thumbnail(THUMBNAIL)
            out = io.BytesIO()
            small.save(out, "JPEG", quality=80)
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, ValueError) as exc:
        log.warning("inspection photo %s: no thumbnail made: %s", photo.pk, exc)
        return None
    return out.getvalue()

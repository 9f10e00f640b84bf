"""Documents people upload to be kept with a record and opened again by others: the signed
attendance log of a training, the plans of a grease control device. Each is checked to
really be a PDF, or a JPEG or PNG photo or scan (a PDF's header, Pillow for images), and not
too large, so that whoever downloads it can open it."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from PIL import Image, UnidentifiedImageError

IMAGE_FORMATS = {"JPEG": "jpg", "PNG": "png"}
CONTENT_TYPES = {"pdf": "application/pdf", "jpg": "image/jpeg", "png": "image/png"}


@dataclass(frozen=True)
class Kept:
    """What a kind of document is called in a refusal, under which field, and its size cap."""

    field: str
    name: str  # "The log", "The plans"
    verb: str  # "is", "are"
    whose: str  # "The log's", "The plans'"
    max_mb: int


def document_kind(upload: UploadedFile, kept: Kept) -> str:
    """The file's extension by its content ("pdf", "jpg" or "png"); refused under
    `kept.field`, in words, when it is none of them or larger than `kept.max_mb`."""
    if upload.size > kept.max_mb * 1024 * 1024:
        size = upload.size / (1024 * 1024)
        raise ValidationError(
            {kept.field: f"{kept.name} {kept.verb} {size:.1f} MB; the largest accepted is "
                         f"{kept.max_mb} MB."}
        )  # fmt: skip
    upload.seek(0)
    head = upload.read(5)
    upload.seek(0)
    if head == b"%PDF-":
        return "pdf"
    kind = _image_kind(upload)
    if kind == "too many pixels":
        raise ValidationError(
            {kept.field: f"{kept.whose} image has too many pixels to open; scan it at 300 dpi "
                         "and upload it."}
        )  # fmt: skip
    if kind is None:
        raise ValidationError(
            {kept.field: f"{kept.name} must be a PDF, or a JPEG or PNG photo or scan."}
        )
    return kind


def _image_kind(upload: UploadedFile) -> str | None:
    try:
        with Image.open(upload) as image:
            image.verify()
            return IMAGE_FORMATS.get(image.format or "")
    except Image.DecompressionBombError:  # more pixels than Image.MAX_IMAGE_PIXELS allows
        return "too many pixels"
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        return None
    finally:
        upload.seek(0)

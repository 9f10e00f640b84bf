"""The signed attendance log of a training, kept with it: a PDF, or a photo or scan (JPEG or
PNG). What is uploaded is checked to really be one (a PDF's header, Pillow for images) and
not too large, so that staff and the operator can open what they download."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from PIL import Image, UnidentifiedImageError

from fogkeeper.audit.services import snapshot
from fogkeeper.registry.services import Actor, audit

from .models import Training

MAX_BYTES = 10 * 1024 * 1024
IMAGE_FORMATS = {"JPEG": "jpg", "PNG": "png"}


def training_log_kind(upload: UploadedFile) -> str:
    """The file's extension by its content ("pdf", "jpg" or "png"); refused with the field
    named ("log") when it is none of them or larger than 10 MB."""
    if upload.size > MAX_BYTES:
        size = upload.size / (1024 * 1024)
        raise ValidationError({"log": f"The log is {size:.1f} MB; the largest accepted is 10 MB."})
    upload.seek(0)
    head = upload.read(5)
    upload.seek(0)
    if head == b"%PDF-":
        return "pdf"
    try:
        with Image.open(upload) as image:
            image.verify()
            kind = IMAGE_FORMATS.get(image.format or "")
    except Image.DecompressionBombError:  # more pixels than Image.MAX_IMAGE_PIXELS allows
        kind = "too many pixels"
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        kind = None
    finally:
        upload.seek(0)
    if kind == "too many pixels":
        too_many = "The log's image has too many pixels to open; scan it at 300 dpi and upload it."
        raise ValidationError({"log": too_many})
    if kind is None:
        raise ValidationError({"log": "The log must be a PDF, or a JPEG or PNG photo or scan."})
    return kind


def training_log_attach(*, training: Training, log: UploadedFile, actor: Actor = None) -> Training:
    """Keep `log` as the signed attendance log of `training` (replacing an earlier one, which
    stays in the audit trail by name)."""
    kind = training_log_kind(log)
    before = snapshot(training)
    name = f"{training.establishment.code}-{training.code}-log.{kind}"
    with transaction.atomic():
        training.log.save(name, log, save=False)
        training.save(update_fields=["log"])
        audit("training.log_attach", training, actor, before=before)
    return training

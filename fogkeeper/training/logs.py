"""The signed attendance log of a training, kept with it: a PDF, or a photo or scan (JPEG or
PNG), checked as every kept document is (fogkeeper/uploads.py), up to 10 MB."""

from __future__ import annotations

from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from fogkeeper.audit.services import snapshot
from fogkeeper.registry.services import Actor, audit
from fogkeeper.uploads import Kept, document_kind

from .models import Training

LOG = Kept(field="log", name="The log", verb="is", whose="The log's", max_mb=10)


def training_log_kind(upload: UploadedFile) -> str:
    """The file's extension by its content ("pdf", "jpg" or "png"); refused with the field
    named ("log") when it is none of them or larger than 10 MB."""
    return document_kind(upload, LOG)


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

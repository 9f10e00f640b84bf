"""Files people upload to be kept with a record, and opened again by others.

Documents (the signed attendance log of a training, the plans of a grease control device) are
checked to really be a PDF, or a JPEG or PNG photo or scan (a PDF's header, Pillow for
images), and not too large, so that whoever downloads it can open it.

A file kept goes with its record or not at all: a file stored within an `atomic` block (below,
instead of transaction.atomic where a record's files are written) is removed when the block
does not commit (a disk that fills up half way through an inspection's photos leaves neither
the inspection nor any of its files), and the default storage (KeptStorage) removes a file
cut off by an error while it was being written."""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.files.storage import FileSystemStorage
from django.core.files.uploadedfile import UploadedFile
from django.db import DEFAULT_DB_ALIAS, transaction
from PIL import Image, UnidentifiedImageError

log = logging.getLogger(__name__)

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
    length = upload.size or 0  # an uploaded file has its size
    if length > kept.max_mb * 1024 * 1024:
        size = length / (1024 * 1024)
        raise ValidationError(
            {
                kept.field: f"{kept.name} {kept.verb} {size:.1f} MB; the largest accepted is "
                f"{kept.max_mb} MB."
            }
        )
    upload.seek(0)
    head = upload.read(5)
    upload.seek(0)
    if head == b"%PDF-":
        return "pdf"
    kind = _image_kind(upload)
    if kind == "too many pixels":
        raise ValidationError(
            {
                kept.field: f"{kept.whose} image has too many pixels to open; scan it at 300 dpi "
                "and upload it."
            }
        )
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


class KeptStorage(FileSystemStorage):
    """The file system, removing what it could not write whole, and telling the enclosing
    `atomic` (below) of each file it stored, to remove it if that does not commit."""

    _writing = threading.local()  # the name being written by this thread's _save

    def get_available_name(self, name, max_length=None):
        self._writing.name = None  # no name of this call's yet: nothing of it to remove
        found = super().get_available_name(name, max_length=max_length)
        self._writing.name = found  # _save tries again under this name when one was taken
        return found

    def _save(self, name, content):
        self._writing.name = name
        try:
            saved = super()._save(name, content)  # type: ignore[misc]  # FileSystemStorage's; unstubbed
        except BaseException:
            if self._writing.name:  # free when this call began, so its file is this call's
                _remove(self, self._writing.name)
            raise
        if (files := _stored.get()) is not None:
            files.append((self, saved))
        return saved


# The files stored within the innermost `atomic` block under way (in this thread or task).
_stored: ContextVar[list | None] = ContextVar("fogkeeper_stored_files", default=None)


@contextmanager
def atomic(using: str = DEFAULT_DB_ALIAS):
    """transaction.atomic, and the files stored within it kept only with it.

    Django runs a function when a transaction commits (on_commit) but has none for a rollback,
    so the files are tracked here: the block that exits with an exception, or is marked for
    rollback, removes the files stored within it; one that ends well hands them to the
    enclosing `atomic` block, if any, whose own end decides. Write a record's files inside the
    outermost block that may roll back."""
    files: list = []
    token = _stored.set(files)
    try:
        with transaction.atomic(using=using):
            yield
            rolled_back = transaction.get_rollback(using=using)
    except BaseException:
        _stored.reset(token)
        _remove_all(files)
        raise
    _stored.reset(token)
    if rolled_back:
        _remove_all(files)
    elif (outer := _stored.get()) is not None:
        outer.extend(files)


def _remove_all(files: list) -> None:
    for storage, name in files:
        _remove(storage, name)


def _remove(storage, name: str) -> None:
    try:
        storage.delete(name)
    except OSError as exc:
        log.warning(
            "a file of a transaction that did not commit was not removed: %s: %s", name, exc
        )

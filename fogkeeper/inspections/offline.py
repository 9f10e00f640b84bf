"""Inspections recorded offline in the field app and sent once back online.

The field app (fogkeeper/web/field/) downloads the day's route while online, keeps each
inspection in the browser until it can send it, and sends it with an id it made itself
(`client_id`, a UUID). `inspection_sync` stores it once whatever happens to the network:

- **Idempotent.** An id already stored answers the inspection stored with it, never a second
  one; two sends of one id at the same moment are ordered by a lock on the establishment's row,
  and the database's unique index on `client_id` refuses what would still slip through.
- **No silent overwrite.** The upload carries the establishment as the inspector saw it when
  the route was downloaded (`seen`, with its `version`). When the establishment or its devices
  have changed since (snapshots.py), nothing is stored and `Conflict` says what changed; the
  inspector sends it again against the record as it is now (its new `version`), deliberately.
- **The same checks as the inspection form** (services.inspection_record and
  inspection_photo_add): everything is stored in one transaction, or nothing.

After it is stored, the operator's receipt is emailed once the transaction commits
(receipts.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import IntegrityError

from fogkeeper import uploads
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import Actor, lock

from .models import Inspection
from .services import Answer, Reading, inspection_photo_add, inspection_record
from .snapshots import changes, establishment_seen, version_of, well_formed
from .tasks import receipt_queue


@dataclass(frozen=True)
class Upload:
    """One inspection as the field app sends it."""

    client_id: UUID
    version: str
    seen: dict[str, Any]
    code: str
    date: date
    answers: Sequence[Answer] = ()
    measurements: Sequence[Reading] = ()
    notes: str = ""
    photos: Sequence[File] = ()
    signature: File | None = None
    signed_by: str = ""


@dataclass(frozen=True)
class Synced:
    inspection: Inspection
    created: bool  # False: the id was stored before, and this is that inspection


class Conflict(Exception):
    """The establishment changed after the route was downloaded: nothing was stored. Carries
    what changed, and the establishment's version and snapshot now, to send it against."""

    def __init__(self, establishment, changes: list[str], version: str, seen: dict[str, Any]):
        super().__init__(f"{establishment} changed since the route was downloaded")
        self.establishment, self.changes, self.version, self.seen = (
            establishment,
            changes,
            version,
            seen,
        )


def stored_inspection(establishment: FoodServiceEstablishment, client_id: UUID):
    """The inspection stored with `client_id` for one of the agency's establishments, if any;
    ValidationError when the id was used for an inspection of another establishment."""
    found = (
        Inspection.objects.filter(client_id=client_id)
        .select_related("establishment")
        .only("pk", "code", "date", "establishment__code", "establishment__agency_id")
        .first()
    )
    if found is None:
        return None
    if found.establishment_id != establishment.pk:
        raise ValidationError(
            {
                "client_id": [
                    f"This inspection was already sent for another establishment "
                    f"({found.establishment.code}), as inspection {found.code}: nothing was "
                    "stored again. Start a new inspection for this one."
                ]
            }
        )
    return found


def _check_seen(establishment: FoodServiceEstablishment, upload: Upload) -> None:
    if not well_formed(upload.seen) or version_of(upload.seen) != upload.version:
        raise ValidationError(
            {
                "version": [
                    f"The route's copy of {establishment.name} is damaged; download the route "
                    "again and send the inspection against it."
                ]
            }
        )


def inspection_sync(
    *,
    establishment: FoodServiceEstablishment,
    upload: Upload,
    inspector: User | None = None,
    today: date | None = None,
    actor: Actor = None,
) -> Synced:
    """Store `upload` once (see the module's docstring); Conflict when the establishment changed
    after `upload.version`, ValidationError for what the inspection form would refuse."""
    if found := stored_inspection(establishment, upload.client_id):
        return Synced(found, created=False)
    _check_seen(establishment, upload)
    try:
        with uploads.atomic():  # its photos and signature are kept only if it is stored
            lock(establishment)  # a second send of this id waits here, then finds the first
            if found := stored_inspection(establishment, upload.client_id):
                return Synced(found, created=False)
            fresh = FoodServiceEstablishment.objects.prefetch_related(
                "tenures__operator", "devices"
            ).get(pk=establishment.pk)
            now = establishment_seen(fresh)
            if version_of(now) != upload.version:
                raise Conflict(establishment, changes(upload.seen, now), version_of(now), now)
            inspection = _store(establishment, upload, inspector, today, actor)
    except IntegrityError:
        found = stored_inspection(establishment, upload.client_id)
        if found is None:
            raise
        return Synced(found, created=False)
    return Synced(inspection, created=True)


def _store(establishment, upload: Upload, inspector, today, actor) -> Inspection:
    inspection = inspection_record(
        establishment=establishment,
        code=upload.code,
        date=upload.date,
        answers=upload.answers,
        measurements=upload.measurements,
        inspector=inspector,
        notes=upload.notes,
        today=today,
        actor=actor,
        client_id=upload.client_id,
        signature=upload.signature,
        signed_by=upload.signed_by,
    )
    for photo in upload.photos:
        inspection_photo_add(inspection=inspection, image=photo, actor=actor)
    receipt_queue(inspection)
    return inspection

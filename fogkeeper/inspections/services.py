"""Writes of inspections with their measurements and checklist answers (see registry.services
for the conventions)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from uuid import UUID

from django.contrib.auth.models import User
from django.core.exceptions import NON_FIELD_ERRORS
from django.core.files import File
from django.db import transaction
from django.utils import timezone

from fogkeeper import uploads
from fogkeeper.audit.services import snapshot
from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_model,
    check_not_future,
    check_not_negative,
    check_within_depth,
    refuse,
)

from .models import ChecklistAnswer, Inspection, InspectionPhoto, Measurement, Sample
from .photos import photo_problem, thumbnail_queue
from .selectors import discharge_limits


@dataclass(frozen=True)
class Answer:
    """The answer to one item of the pack's checklist, for one device or the whole FSE."""

    item: str
    compliant: bool
    device: GreaseControlDevice | None = None
    note: str = ""


@dataclass(frozen=True)
class Reading:
    """What the inspector measured in one device."""

    device: GreaseControlDevice
    fog_inches: Decimal | None = None
    solids_inches: Decimal | None = None
    final_chamber_floating_oil: bool | None = None
    sludge_to_outlet_inches: Decimal | None = None


# How a reading's depths are named to a person.
DEPTHS = {
    "fog_inches": "FOG depth",
    "solids_inches": "Solids depth",
    "sludge_to_outlet_inches": "Sludge to the outlet",
}


def _check_device(
    errors: Errors, key: str, device: GreaseControlDevice | None, fse, on: date
) -> None:
    if device is None:
        return
    if device.establishment_id != fse.pk:
        add_error(errors, key, f"{device.code} is not a device of {fse}.")
    elif device.installed_on > on or (device.removed_on is not None and device.removed_on < on):
        add_error(errors, key, f"{device.code} was not installed on {on}.")


def _both_depths(reading: Reading, establishment: FoodServiceEstablishment) -> str:
    """Why a reading with one depth only is refused: the accumulation rule needs both."""
    missing = "solids" if reading.solids_inches is None else "FOG"
    rule = establishment.agency.get_pack().rules.get("gcd.accumulation_over_limit")
    why = f"{rule.title} ({rule.citation})" if rule else "the accumulation limit"
    return (
        f"{reading.device.code}: the {missing} depth is missing; give both depths, since "
        f"{why} adds them."
    )


def _check_header(errors: Errors, inspection: Inspection, answers, measurements, today) -> None:
    """Not blank, not in the future, and a number the agency has not used."""
    if not answers and not measurements:
        add_error(
            errors,
            NON_FIELD_ERRORS,
            "An inspection records at least one checklist answer or measurement.",
        )
    if inspection.date > (today or timezone.localdate()):
        add_error(errors, "date", f"{inspection.date} is in the future.")
    agency = inspection.establishment.agency_id
    used = Inspection.objects.filter(establishment__agency=agency, code=inspection.code)
    if inspection.code and (earlier := used.select_related("establishment").first()):
        add_error(
            errors,
            "code",
            f"Inspection number {inspection.code} is already used: "
            f"{earlier.establishment.name} on {earlier.date}.",
        )


def _check_signature(errors: Errors, signature: File | None, signed_by: str) -> None:
    if signature and not signed_by.strip():
        add_error(errors, "signed_by", "Give the name of who signed for the establishment.")
    elif signed_by.strip() and not signature:
        add_error(errors, "signature", f"{signed_by} is named as signing, but no signature came.")
    elif signature and (problem := photo_problem(signature)):
        add_error(errors, "signature", problem)


def _check_answers(errors: Errors, answers, establishment, on: date) -> None:
    checklist = establishment.agency.get_pack().checklist
    answered: set[tuple[str, int | None]] = set()
    for i, a in enumerate(answers):
        key = f"answers[{i}]"
        if a.item not in checklist:
            add_error(errors, key, f"{a.item!r} is not on the checklist of {establishment.agency}.")
        _check_device(errors, key, a.device, establishment, on)
        which = (a.item, a.device.pk if a.device else None)
        if which in answered:
            add_error(errors, key, f"{a.item!r} is answered twice.")
        answered.add(which)


def _check_readings(errors: Errors, measurements, establishment, on: date) -> None:
    measured: set[int] = set()
    for i, r in enumerate(measurements):
        key = f"measurements[{i}]"
        _check_device(errors, key, r.device, establishment, on)
        if r.device.pk in measured:
            add_error(errors, key, f"{r.device.code} is measured twice.")
        measured.add(r.device.pk)
        field_errors: Errors = {}
        check_not_negative(
            field_errors,
            fog_inches=r.fog_inches,
            solids_inches=r.solids_inches,
            sludge_to_outlet_inches=r.sludge_to_outlet_inches,
        )
        for field, messages in field_errors.items():
            for m in messages:
                add_error(errors, key, f"{DEPTHS[field]} in {r.device.code}: {m}")
        if (r.fog_inches is None) != (r.solids_inches is None):
            add_error(errors, key, _both_depths(r, establishment))
        check_within_depth(errors, key, r.device, r.fog_inches, r.solids_inches)


def _rows(inspection: Inspection, answers, measurements) -> tuple[list, list]:
    answer_rows = [
        ChecklistAnswer(
            inspection=inspection, item=a.item, compliant=a.compliant, device=a.device, note=a.note
        )
        for a in answers
    ]
    readings = [
        Measurement(
            inspection=inspection,
            device=r.device,
            fog_inches=r.fog_inches,
            solids_inches=r.solids_inches,
            final_chamber_floating_oil=r.final_chamber_floating_oil,
            sludge_to_outlet_inches=r.sludge_to_outlet_inches,
        )
        for r in measurements
    ]
    return answer_rows, readings


def inspection_record(
    *,
    establishment: FoodServiceEstablishment,
    code: str,
    date: date,
    answers: Sequence[Answer] = (),
    measurements: Sequence[Reading] = (),
    inspector: User | None = None,
    notes: str = "",
    today: date | None = None,
    actor: Actor = None,
    client_id: UUID | None = None,
    signature: File | None = None,
    signed_by: str = "",
) -> Inspection:
    """An inspection: answers to items of the agency's checklist and measurements of the
    establishment's devices. A blank inspection (nothing answered, nothing measured), a number
    the agency already used, and a date after `today` (by default the local date) are refused.
    One recorded offline carries its field app's `client_id` and may carry the signature of
    who signed for the establishment (`signed_by` names them; both or neither)."""
    inspection = Inspection(
        establishment=establishment,
        code=code,
        date=date,
        inspector=inspector,
        notes=notes,
        client_id=client_id,
        signature=signature,
        signed_by=signed_by,
    )
    errors: Errors = {}
    _check_header(errors, inspection, answers, measurements, today)
    _check_signature(errors, signature, signed_by)
    check_model(inspection, errors)
    _check_answers(errors, answers, establishment, date)
    _check_readings(errors, measurements, establishment, date)
    refuse(errors)
    with uploads.atomic():  # the signature is kept only with the inspection
        inspection.save()
        answer_rows, readings = _rows(inspection, answers, measurements)
        for row in [*answer_rows, *readings]:
            row_errors: Errors = {}
            check_model(row, row_errors)
            refuse(row_errors)
        ChecklistAnswer.objects.bulk_create(answer_rows)
        Measurement.objects.bulk_create(readings)
        after = snapshot(inspection)
        after["answers"] = [snapshot(a) for a in answer_rows]
        after["measurements"] = [snapshot(m) for m in readings]
        audit("inspection.record", inspection, actor, after=after)
    reevaluate_on_commit(establishment)
    return inspection


def inspection_photo_add(
    *, inspection: Inspection, image: File, caption: str = "", actor: Actor = None
) -> InspectionPhoto:
    """A photo stored with `inspection`, refused when larger than a photo may be (its bytes,
    its pixels); its thumbnail is made once the photo is stored (photos.py)."""
    photo = InspectionPhoto(inspection=inspection, image=image, caption=caption)
    errors: Errors = {}
    problem = photo_problem(image)
    if problem:
        errors["image"] = [problem]
    else:
        check_model(photo, errors)
    refuse(errors)
    with uploads.atomic():  # the photo's file is kept only with its row
        photo.save()
        after = {"inspection": inspection.pk, "image": photo.image.name, "caption": caption}
        audit("inspection.photo_add", photo, actor, after=after)
        thumbnail_queue(photo)
    return photo


def sample_record(
    *,
    establishment: FoodServiceEstablishment,
    code: str,
    date: date,
    parameter: str,
    value: Decimal,
    unit: str,
    device: GreaseControlDevice | None = None,
    method: str = "",
    inspection: Inspection | None = None,
    today: date | None = None,
    actor: Actor = None,
) -> Sample:
    """A sample of the discharge, analysed for one parameter, taken not after `today` (by
    default the agency's today). Refused in another unit than the limit in force for the
    parameter (the pack's, or the permit's over it)."""
    errors: Errors = {}
    check_not_future(errors, today or establishment.agency.today(), date=date)
    check_not_negative(errors, value=value)
    if device is not None and device.establishment_id != establishment.pk:
        add_error(errors, "device", f"{device.code} is not a device of {establishment}.")
    if inspection is not None and inspection.establishment_id != establishment.pk:
        add_error(errors, "inspection", f"{inspection} is not of {establishment}.")
    pack = establishment.agency.get_pack()
    limit = discharge_limits(establishment, pack, date).get(parameter)
    if limit is not None and unit != limit["unit"]:
        add_error(
            errors,
            "unit",
            f"The {parameter} limit is in {limit['unit']}; record the result in {limit['unit']}.",
        )
    sample = Sample(
        establishment=establishment,
        device=device,
        code=code,
        date=date,
        parameter=parameter,
        value=value,
        unit=unit,
        method=method,
        inspection=inspection,
    )
    check_model(sample, errors)
    refuse(errors)
    with transaction.atomic():
        sample.save()
        audit("sample.record", sample, actor)
    reevaluate_on_commit(establishment)
    return sample

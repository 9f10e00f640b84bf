"""Writes of sewer overflows, spills and blockages (see registry.services for the
conventions)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from fogkeeper.audit.services import snapshot
from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, normalise_address
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_model,
    check_not_negative,
    check_order,
    check_same_agency,
    refuse,
)

from .models import Incident


def incident_report(
    *,
    agency: Agency,
    code: str,
    date: date,
    establishment: FoodServiceEstablishment | None = None,
    kind: str = "overflow",
    attributed: bool = False,
    fog_caused: bool = False,
    gallons: Decimal | None = None,
    address: str = "",
    cause: str = "",
    written_report_on: date | None = None,
    clearance_inspection_on: date | None = None,
    source: str = "staff",
    source_record: dict[str, Any] | None = None,
    today: date | None = None,
    actor: Actor = None,
) -> Incident:
    """An overflow, spill or blockage, attributed to `establishment` when known. No date may
    come after `today` (by default the local date)."""
    incident = Incident(
        agency=agency,
        establishment=establishment,
        code=code,
        date=date,
        kind=kind,
        attributed=attributed,
        fog_caused=fog_caused,
        gallons=gallons,
        address=address,
        normalised_address=normalise_address(address),
        cause=cause,
        written_report_on=written_report_on,
        clearance_inspection_on=clearance_inspection_on,
        source=source,
        source_record=source_record,
    )
    errors: Errors = {}
    check_same_agency(errors, "establishment", establishment, agency)
    check_not_negative(errors, gallons=gallons)
    _check_dates(errors, incident, today)
    if attributed and establishment is None:
        add_error(errors, "attributed", "An attributed incident names its establishment.")
    check_model(incident, errors)
    refuse(errors)
    with transaction.atomic():
        incident.save()
        audit("incident.report", incident, actor)
    return incident


_DATES = ("date", "written_report_on", "clearance_inspection_on")


def _check_dates(errors: Errors, incident: Incident, today: date | None) -> None:
    """The report and the clearance come on or after the incident; nothing in the future."""
    today = today or timezone.localdate()
    for field in _DATES:
        value = getattr(incident, field)
        if value is not None and value > today:
            add_error(errors, field, f"{value} is in the future.")
    for field in _DATES[1:]:
        check_order(errors, field, getattr(incident, field), incident.date, "the incident")


def _reswept(incident: Incident, earlier: FoodServiceEstablishment | None, as_of: date) -> None:
    """The establishment the incident is (and was) attributed to, evaluated again at once."""
    for fse in {e.pk: e for e in (earlier, incident.establishment) if e is not None}.values():
        sweep_establishment(fse, as_of=as_of)


def incident_update(
    *,
    incident: Incident,
    attributed: bool,
    fog_caused: bool,
    cause: str = "",
    gallons: Decimal | None = None,
    written_report_on: date | None = None,
    clearance_inspection_on: date | None = None,
    today: date | None = None,
    as_of: date | None = None,
    actor: Actor = None,
) -> Incident:
    """What the investigation found: attribution, cause, volume, and the dates the written
    report was received and the clearance inspection made (the Town's 10.02.170(A)(4) and
    10.02.180(B)). The establishment is evaluated again on `as_of` (by default today)."""
    before = snapshot(incident)
    incident.attributed, incident.fog_caused = attributed, fog_caused
    incident.cause, incident.gallons = cause.strip(), gallons
    incident.written_report_on = written_report_on
    incident.clearance_inspection_on = clearance_inspection_on
    errors: Errors = {}
    check_not_negative(errors, gallons=gallons)
    _check_dates(errors, incident, today)
    if attributed and incident.establishment_id is None:
        add_error(
            errors,
            "attributed",
            "Match the incident to an establishment before attributing it to one.",
        )
    check_model(incident, errors)
    if errors:
        incident.refresh_from_db()
        refuse(errors)
    with transaction.atomic():
        incident.save()
        audit("incident.update", incident, actor, before=before)
    _reswept(incident, None, as_of or timezone.localdate())
    return incident


def incident_match(
    *,
    incident: Incident,
    establishment: FoodServiceEstablishment,
    attributed: bool | None = None,
    today: date | None = None,
    as_of: date | None = None,
    actor: Actor = None,
) -> Incident:
    """An imported spill the address match missed, matched by hand to an establishment of its
    agency; attributed (by default) when it was FOG-caused, as the import would have done."""
    errors: Errors = {}
    check_same_agency(errors, "establishment", establishment, incident.agency)
    if incident.establishment_id is not None:
        add_error(errors, "establishment", f"{incident.code} is already matched.")
    refuse(errors)
    before = snapshot(incident)
    incident.establishment = establishment
    incident.attributed = incident.fog_caused if attributed is None else attributed
    incident.reviewed_on = today or timezone.localdate()
    incident.reviewed_by = actor if getattr(actor, "is_authenticated", False) else None
    with transaction.atomic():
        incident.save()
        audit("incident.match", incident, actor, before=before)
    _reswept(incident, None, as_of or timezone.localdate())
    return incident


def incident_set_aside(
    *, incident: Incident, note: str, today: date | None = None, actor: Actor = None
) -> Incident:
    """An imported spill reviewed and found not to come from a food service establishment
    (a home's lateral, a main line): kept, with who decided so and why."""
    errors: Errors = {}
    if not note.strip():
        add_error(errors, "review_note", "Say why the spill is not from an establishment.")
    if incident.establishment_id is not None:
        add_error(errors, "review_note", f"{incident.code} is matched to an establishment.")
    refuse(errors)
    before = snapshot(incident)
    incident.reviewed_on = today or timezone.localdate()
    incident.reviewed_by = actor if getattr(actor, "is_authenticated", False) else None
    incident.review_note = note.strip()
    with transaction.atomic():
        incident.save()
        audit("incident.set_aside", incident, actor, before=before)
    return incident

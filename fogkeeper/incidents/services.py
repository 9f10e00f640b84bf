"""Writes of sewer overflows, spills and blockages (see registry.services for the
conventions)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from fogkeeper.audit.services import snapshot
from fogkeeper.reevaluation import reevaluate_ids_on_commit
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
from .reporting_pack import of_agency
from .spills import derive_category

# What a spill was (its times, volumes and what it reached: its facts, kept for every agency)
# and what the State pack asks of it (the notification and the reports: only where the
# agency's pack names one), kept as given; the category is derived from them where they
# decide it (fogkeeper.incidents.spills).
SPILL_TIMES = ("started_at", "ended_at", "known_at", "oes_notified_at", "notification_certified_at")
SPILL_VOLUMES = ("gallons_recovered", "gallons_to_surface_water")
SPILL_FLAGS = ("reached_surface_water", "reached_storm_drain", "storm_drain_fully_captured")
SPILL_REPORTS = (
    "draft_report_on",
    "certified_report_on",
    "amended_report_on",
    "technical_report_on",
)
SPILL_FIELDS = (*SPILL_TIMES, *SPILL_VOLUMES, *SPILL_FLAGS, *SPILL_REPORTS, "oes_control_number")
# The State's records of a spill, as a refusal names them.
STATE_FIELDS = {
    "oes_notified_at": "The State's notification",
    "oes_control_number": "Its control number",
    "notification_certified_at": "The notification's certification",
    "draft_report_on": "The draft spill report",
    "certified_report_on": "The certified report",
    "amended_report_on": "The amended report",
    "technical_report_on": "The technical report",
}


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
    category: int | None = None,
    today: date | None = None,
    now: datetime | None = None,
    actor: Actor = None,
    **spill: Any,
) -> Incident:
    """An overflow, spill or blockage, attributed to `establishment` when known, with what the
    State's General Order asks of a spill (`spill`: any of SPILL_FIELDS). Its category is
    derived from those where they decide it; otherwise `category` is the one staff set. No
    date may come after `today`, no time after `now` (by default the local date and now)."""
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
    _put_spill(incident, spill)
    errors: Errors = {}
    check_same_agency(errors, "establishment", establishment, agency)
    _check_spill(errors, incident, today, now)
    _categorise(errors, incident, category)
    if attributed and establishment is None:
        add_error(errors, "attributed", "An attributed incident names its establishment.")
    check_model(incident, errors)
    refuse(errors)
    with transaction.atomic():
        incident.save()
        audit("incident.report", incident, actor)
    _reswept(incident, None, None)
    return incident


_DATES = ("date", "written_report_on", "clearance_inspection_on", *SPILL_REPORTS)


def _check_dates(errors: Errors, incident: Incident, today: date | None) -> None:
    """The reports and the clearance come on or after the incident; nothing in the future."""
    today = today or timezone.localdate()
    for field in _DATES:
        value = getattr(incident, field)
        if value is not None and value > today:
            add_error(errors, field, f"{value} is in the future.")
    for field in _DATES[1:]:
        check_order(errors, field, getattr(incident, field), incident.date, "the incident")


def _put_spill(incident: Incident, spill: dict[str, Any]) -> None:
    unknown = set(spill) - set(SPILL_FIELDS)
    if unknown:
        raise TypeError(f"not a spill field: {', '.join(sorted(unknown))}")
    for name, value in spill.items():
        setattr(incident, name, (value or "").strip() if name == "oes_control_number" else value)


def _check_spill(
    errors: Errors, incident: Incident, today: date | None, now: datetime | None
) -> None:
    """Volumes not negative, and what was recovered or reached surface water not above what
    spilled; the spill ends after it starts; no time in the future; the State's reports come
    on or after the incident and not after today."""
    volumes = {name: getattr(incident, name) for name in ("gallons", *SPILL_VOLUMES)}
    check_not_negative(errors, **volumes)
    for name in SPILL_VOLUMES:
        part = volumes[name]
        if part is not None and incident.gallons is not None and 0 <= incident.gallons < part:
            add_error(errors, name, f"{part} gallons is more than the {incident.gallons} spilled.")
    surface = incident.gallons_to_surface_water
    if incident.reached_surface_water is False and surface is not None and surface > 0:
        add_error(
            errors,
            "gallons_to_surface_water",
            f"{surface} gallons reached surface water, yet the spill is said not to reach it.",
        )
    _check_dates(errors, incident, today)
    now = now or timezone.now()
    for name in SPILL_TIMES:
        value = getattr(incident, name)
        if value is not None and value > now:
            add_error(errors, name, f"{timezone.localtime(value):%Y-%m-%d %H:%M} is in the future.")
    start, end = incident.started_at, incident.ended_at
    if start is not None and end is not None and end < start:
        add_error(
            errors,
            "ended_at",
            f"The spill cannot end ({timezone.localtime(end):%Y-%m-%d %H:%M}) before it started "
            f"({timezone.localtime(start):%Y-%m-%d %H:%M}).",
        )


def _categorise(errors: Errors, incident: Incident, category: int | None) -> None:
    """The category the spill's data gives (source "derived"); where the data does not decide
    it, the one staff set (source "staff"). A staff category the data contradicts is refused
    with the rule cited. An agency whose pack names no State pack keeps no State category nor
    State report."""
    if of_agency(incident.agency) is None:
        _no_state(errors, incident, category)
        return
    derived, reason = derive_category(incident)
    if derived is not None:
        if category is not None and category != derived:
            add_error(errors, "category", f"Category {category} contradicts the spill: {reason}")
        incident.category, incident.category_source = derived, "derived"
    elif category is not None:
        incident.category, incident.category_source = category, "staff"
    else:
        incident.category, incident.category_source = None, ""


def _no_state(errors: Errors, incident: Incident, category: int | None) -> None:
    """A category or a State report given where the agency's pack names no State pack is
    refused in words: it would be a State's record the agency does not keep."""
    why = f"{incident.agency.name}'s ordinance pack names no State spill reporting"
    if category is not None:
        add_error(errors, "category", f"A spill has no State category here: {why}.")
    for name, label in STATE_FIELDS.items():
        if getattr(incident, name) not in (None, ""):
            add_error(errors, name, f"{label} is a State record, not kept here: {why}.")
    incident.category, incident.category_source = None, ""


def _reswept(
    incident: Incident, earlier: FoodServiceEstablishment | None, as_of: date | None
) -> None:
    """The establishment the incident is (and was) matched to, evaluated again once the write
    commits."""
    matched = [e.pk for e in (earlier, incident.establishment) if e is not None]
    reevaluate_ids_on_commit(incident.agency_id, matched, as_of=as_of)


def incident_update(
    *,
    incident: Incident,
    attributed: bool,
    fog_caused: bool,
    cause: str = "",
    gallons: Decimal | None = None,
    written_report_on: date | None = None,
    clearance_inspection_on: date | None = None,
    category: int | None = None,
    today: date | None = None,
    now: datetime | None = None,
    as_of: date | None = None,
    actor: Actor = None,
    **spill: Any,
) -> Incident:
    """What the investigation found: attribution, cause, volume, and the dates the written
    report was received and the clearance inspection made (the Town's 10.02.170(A)(4) and
    10.02.180(B)); and what the State's General Order asks of a spill (`spill`, any of
    SPILL_FIELDS; those not given are left as they are), its category derived again or set by
    staff (`category`) as in `incident_report`. The establishment is evaluated again on
    `as_of` (by default today)."""
    before = snapshot(incident)
    incident.attributed, incident.fog_caused = attributed, fog_caused
    incident.cause, incident.gallons = cause.strip(), gallons
    incident.written_report_on = written_report_on
    incident.clearance_inspection_on = clearance_inspection_on
    _put_spill(incident, spill)
    errors: Errors = {}
    _check_spill(errors, incident, today, now)
    _categorise(errors, incident, category)
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
    _reswept(incident, None, as_of)
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
    _reswept(incident, None, as_of)
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

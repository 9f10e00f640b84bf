"""Recording the cleaning of a sewer segment: validated, saved and audited in one transaction."""

from __future__ import annotations

from datetime import date

from django.db import transaction

from fogkeeper.audit.services import audit_record
from fogkeeper.registry.models import Agency, SewerSegment
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    check_model,
    check_not_future,
    refuse,
)

from .models import SegmentCleaning


def cleaning_record(
    *,
    agency: Agency,
    segment: SewerSegment,
    cleaned_on: date,
    crew: str,
    method: str,
    fog_found: str,
    notes: str = "",
    actor: Actor,
    today: date | None = None,
) -> SegmentCleaning:
    """A cleaning of one of the agency's segments, done on `cleaned_on` (not after `today`)
    by `crew`, with its method and the FOG found (the model's choices)."""
    cleaning = SegmentCleaning(
        agency=agency,
        segment=segment,
        cleaned_on=cleaned_on,
        crew=(crew or "").strip(),
        method=method,
        fog_found=fog_found,
        notes=(notes or "").strip(),
        recorded_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    errors: Errors = {}
    if segment.agency_id != agency.pk:
        add_error(errors, "segment", f"Segment {segment} belongs to another agency than {agency}.")
    if not cleaning.crew:
        add_error(errors, "crew", "Name the crew that cleaned the segment.")
    check_not_future(errors, today, cleaned_on=cleaned_on)
    check_model(cleaning, errors, exclude=["crew"] if "crew" in errors else ())
    refuse(errors)
    with transaction.atomic():
        cleaning.save()
        audit_record(action="segment.clean", obj=cleaning, actor=actor, agency=agency)
    return cleaning

"""Writes of sewer overflows, spills and blockages (see registry.services for the
conventions)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from django.db import transaction

from fogkeeper.registry.models import Agency, FoodServiceEstablishment, normalise_address
from fogkeeper.registry.services import (
    Actor,
    Errors,
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
    actor: Actor = None,
) -> Incident:
    """An overflow, spill or blockage, attributed to `establishment` when known."""
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
    check_order(errors, "written_report_on", written_report_on, date, "the incident")
    check_order(errors, "clearance_inspection_on", clearance_inspection_on, date, "the incident")
    if attributed and establishment is None:
        errors.setdefault("attributed", []).append(
            "An attributed incident names its establishment."
        )
    check_model(incident, errors)
    refuse(errors)
    with transaction.atomic():
        incident.save()
        audit("incident.report", incident, actor)
    return incident

"""Permit applications: submitted, decided, denied."""

from __future__ import annotations

from datetime import date

from django.db import transaction

from fogkeeper.audit.services import snapshot
from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_model,
    check_not_future,
    check_order,
    refuse,
)

from ..models import Permit, PermitApplication
from ..requirements import DETAILS, application_spec, missing_items
from .issuance import check_complete
from .shared import _CLOSED


def permit_application_submit(
    *,
    establishment: FoodServiceEstablishment,
    submitted_on: date,
    applicant_name: str,
    applicant_address: str,
    renewal_of: Permit | None = None,
    wastewater_volume_gpd: int | None = None,
    wastewater_type: str = "",
    food_preparation_hours: str = "",
    cleaning_hours: str = "",
    food_preparation: str = "",
    meals_per_day: int | None = None,
    cleanup_procedures: str = "",
    dining_capacity: int | None = None,
    employee_count: int | None = None,
    kitchen_size_sq_ft: int | None = None,
    appliances_and_fixtures: str = "",
    other_information: str = "",
    business_name: str = "",
    emergency_contact_name: str = "",
    emergency_contact_phone: str = "",
    building_permit_reference: str = "",
    require_complete: bool = False,
    actor: Actor = None,
) -> PermitApplication:
    """An application for a permit, or for the renewal of `renewal_of`, whose
    `renewal_applied_on` it sets (the engine reads it for the renewal deadline).

    With `require_complete` (an application the operator files itself), every field the
    jurisdiction's application requires must be filled in (permits.requirements); staff
    recording a paper application as received may leave gaps."""
    application = PermitApplication(
        establishment=establishment,
        renewal_of=renewal_of,
        submitted_on=submitted_on,
        applicant_name=applicant_name,
        applicant_address=applicant_address,
        business_name=business_name,
        emergency_contact_name=emergency_contact_name,
        emergency_contact_phone=emergency_contact_phone,
        building_permit_reference=building_permit_reference,
        wastewater_volume_gpd=wastewater_volume_gpd,
        wastewater_type=wastewater_type,
        food_preparation_hours=food_preparation_hours,
        cleaning_hours=cleaning_hours,
        food_preparation=food_preparation,
        meals_per_day=meals_per_day,
        cleanup_procedures=cleanup_procedures,
        dining_capacity=dining_capacity,
        employee_count=employee_count,
        kitchen_size_sq_ft=kitchen_size_sq_ft,
        appliances_and_fixtures=appliances_and_fixtures,
        other_information=other_information,
    )
    errors: Errors = {}
    check_not_future(errors, None, submitted_on=submitted_on)
    _check_renewal_of(errors, renewal_of, establishment)
    if require_complete:
        spec = application_spec(establishment.agency.get_pack())
        for name, why in spec.missing(snapshot(application)).items():
            add_error(errors, name, why)
    check_model(application, errors, exclude=[n for n in errors if n in DETAILS])
    refuse(errors)
    with transaction.atomic():
        application.save()
        audit("application.submit", application, actor)
        if renewal_of is not None and renewal_of.renewal_applied_on is None:
            before = snapshot(renewal_of)
            renewal_of.renewal_applied_on = submitted_on
            renewal_of.save(update_fields=["renewal_applied_on"])
            audit("permit.renewal_apply", renewal_of, actor, before=before)
    reevaluate_on_commit(establishment)
    return application


def _check_renewal_of(errors: Errors, renewal_of: Permit | None, establishment) -> None:
    if renewal_of is None:
        return
    if renewal_of.establishment_id != establishment.pk:
        add_error(errors, "renewal_of", f"{renewal_of.number} is not of {establishment}.")
    if renewal_of.status in _CLOSED:
        add_error(
            errors,
            "renewal_of",
            f"{renewal_of.number} is {renewal_of.get_status_display().lower()}.",
        )


def permit_application_decide(
    *,
    application: PermitApplication,
    decided_on: date,
    approved: bool,
    actor: Actor = None,
    reason: str = "",
) -> PermitApplication:
    """The application decided; approved, one lacking required items needs `reason`, the
    reviewer's override, which is stored with it."""
    errors: Errors = {}
    if application.decided_on is not None:
        add_error(errors, "decided_on", f"{application} was decided on {application.decided_on}.")
    check_order(errors, "decided_on", decided_on, application.submitted_on, "its submission")
    if approved:
        check_complete(errors, application, reason)
    refuse(errors)
    with transaction.atomic():
        before = snapshot(application)
        application.decided_on = decided_on
        application.approved = approved
        if approved and missing_items(application):
            application.missing_override = reason.strip()
        application.full_clean()
        application.save()
        action = "application.approve" if approved else "application.refuse"
        audit(action, application, actor, before=before, reason=reason)
    reevaluate_on_commit(application.establishment)
    return application


def permit_application_deny(
    *, application: PermitApplication, decided_on: date, reasons: str, actor: Actor = None
) -> PermitApplication:
    """The application refused, with the reasons the applicant is told (required)."""
    errors: Errors = {}
    if not (reasons or "").strip():
        add_error(errors, "reasons", "Give the reasons the application is denied.")
    if application.decided_on is not None:
        add_error(errors, "decided_on", f"{application} was decided on {application.decided_on}.")
    refuse(errors)
    return permit_application_decide(
        application=application,
        decided_on=decided_on,
        approved=False,
        actor=actor,
        reason=reasons.strip(),
    )

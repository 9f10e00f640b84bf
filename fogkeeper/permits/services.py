"""Writes of permits and permit applications (see registry.services for the conventions)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction

from fogkeeper.audit.services import snapshot
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_model,
    check_order,
    check_positive,
    refuse,
)

from .models import Permit, PermitApplication
from .requirements import DETAILS, application_spec
from .selectors import establishment_current_permit

_CLOSED = ("ended", "revoked", "superseded")


def _title(establishment: FoodServiceEstablishment) -> str:
    return establishment.agency.get_pack().titles.get("permit", "permit")


def _check_application(
    errors: Errors, application: PermitApplication | None, establishment, renewal_of=None
) -> None:
    if application is None:
        return
    if application.establishment_id != establishment.pk:
        add_error(errors, "application", f"{application} is not of {establishment}.")
    if application.approved is False:
        add_error(errors, "application", f"{application} was refused on {application.decided_on}.")
    if renewal_of is not None and application.renewal_of_id not in (None, renewal_of.pk):
        add_error(errors, "application", f"{application} is for another permit.")


def _new_permit(
    errors: Errors,
    *,
    establishment: FoodServiceEstablishment,
    number: str,
    issued_on: date,
    expires_on: date,
    holder: str,
    service_frequency_days: int | None,
    yellow_grease_frequency_days: int | None,
    conditions: str,
    application: PermitApplication | None,
) -> Permit:
    if not holder:
        tenure = establishment.current_tenure()
        if tenure is None:
            add_error(
                errors, "holder", f"{establishment} has no current operator: name the holder."
            )
        else:
            holder = tenure.operator.name
    permit = Permit(
        agency=establishment.agency,
        establishment=establishment,
        number=number,
        holder=holder,
        issued_on=issued_on,
        expires_on=expires_on,
        service_frequency_days=service_frequency_days,
        yellow_grease_frequency_days=yellow_grease_frequency_days,
        conditions=conditions,
        application=application,
    )
    if expires_on is not None and issued_on is not None and expires_on < issued_on:
        add_error(
            errors,
            "expires_on",
            f"The {_title(establishment)} would expire ({expires_on}) before it is issued "
            f"({issued_on}).",
        )
    check_positive(
        errors,
        service_frequency_days=service_frequency_days,
        yellow_grease_frequency_days=yellow_grease_frequency_days,
    )
    check_model(permit, errors, exclude=["holder"] if "holder" in errors else ())
    return permit


def _or(value: Any, default: Any) -> Any:
    return default if value is None else value


def _approve(application: PermitApplication | None, on: date, actor: Actor) -> None:
    if application is not None and application.decided_on is None:
        before = snapshot(application)
        application.decided_on = max(on, application.submitted_on)
        application.approved = True
        application.full_clean()
        application.save()
        audit("application.approve", application, actor, before=before)


def permit_issue(
    *,
    establishment: FoodServiceEstablishment,
    number: str,
    issued_on: date,
    expires_on: date,
    holder: str = "",
    service_frequency_days: int | None = None,
    yellow_grease_frequency_days: int | None = None,
    conditions: str = "",
    application: PermitApplication | None = None,
    actor: Actor = None,
) -> Permit:
    """A new permit, to the current operator unless `holder` says otherwise; an undecided
    `application` is approved by it. An establishment holds one active permit: a permit in
    force is renewed (`permit_renew`), not issued again."""
    errors: Errors = {}
    current = establishment_current_permit(establishment=establishment)
    if current is not None:
        add_error(
            errors,
            "establishment",
            f"{establishment} already holds {_title(establishment)} {current.number}: "
            "renew it instead.",
        )
    _check_application(errors, application, establishment)
    permit = _new_permit(
        errors,
        establishment=establishment,
        number=number,
        issued_on=issued_on,
        expires_on=expires_on,
        holder=holder,
        service_frequency_days=service_frequency_days,
        yellow_grease_frequency_days=yellow_grease_frequency_days,
        conditions=conditions,
        application=application,
    )
    refuse(errors)
    with transaction.atomic():
        _approve(application, issued_on, actor)
        permit.save()
        audit("permit.issue", permit, actor)
    return permit


def permit_renew(
    *,
    permit: Permit,
    number: str,
    issued_on: date,
    expires_on: date,
    holder: str = "",
    service_frequency_days: int | None = None,
    yellow_grease_frequency_days: int | None = None,
    conditions: str | None = None,
    application: PermitApplication | None = None,
    actor: Actor = None,
) -> Permit:
    """A new permit replacing `permit`, which is superseded from `issued_on`. Frequencies and
    conditions not given are carried over from the old permit."""
    establishment = permit.establishment
    errors: Errors = {}
    if permit.status in _CLOSED:
        add_error(errors, "permit", f"{permit.number} is {permit.get_status_display().lower()}.")
    check_order(errors, "issued_on", issued_on, permit.issued_on, f"{permit.number}'s issue")
    _check_application(errors, application, establishment, renewal_of=permit)
    new = _new_permit(
        errors,
        establishment=establishment,
        number=number,
        issued_on=issued_on,
        expires_on=expires_on,
        holder=holder,
        service_frequency_days=_or(service_frequency_days, permit.service_frequency_days),
        yellow_grease_frequency_days=_or(
            yellow_grease_frequency_days, permit.yellow_grease_frequency_days
        ),
        conditions=permit.conditions if conditions is None else conditions,
        application=application,
    )
    refuse(errors)
    with transaction.atomic():
        before = snapshot(permit)
        permit.status = "superseded"
        permit.ended_on = issued_on
        permit.full_clean()
        permit.save()
        audit("permit.supersede", permit, actor, before=before, reason=f"renewed as {number}")
        _approve(application, issued_on, actor)
        new.save()
        audit("permit.renew", new, actor, reason=f"renewal of {permit.number}")
    return new


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
    if renewal_of is not None:
        if renewal_of.establishment_id != establishment.pk:
            add_error(errors, "renewal_of", f"{renewal_of.number} is not of {establishment}.")
        if renewal_of.status in _CLOSED:
            add_error(
                errors,
                "renewal_of",
                f"{renewal_of.number} is {renewal_of.get_status_display().lower()}.",
            )
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
    return application


def permit_application_decide(
    *,
    application: PermitApplication,
    decided_on: date,
    approved: bool,
    actor: Actor = None,
    reason: str = "",
) -> PermitApplication:
    errors: Errors = {}
    if application.decided_on is not None:
        add_error(errors, "decided_on", f"{application} was decided on {application.decided_on}.")
    check_order(errors, "decided_on", decided_on, application.submitted_on, "its submission")
    refuse(errors)
    with transaction.atomic():
        before = snapshot(application)
        application.decided_on = decided_on
        application.approved = approved
        application.full_clean()
        application.save()
        action = "application.approve" if approved else "application.refuse"
        audit(action, application, actor, before=before, reason=reason)
    return application


# -- suspension, revocation and denial, as the final decision orders (RULES.md 11.7, 11.8) --


def _check_open(errors: Errors, permit: Permit) -> None:
    if permit.status in _CLOSED or permit.revoked_on is not None:
        state = "revoked" if permit.revoked_on else permit.get_status_display().lower()
        add_error(errors, "permit", f"{permit.number} is {state}.")


def _decide(permit: Permit, changes: dict[str, Any], action: str, actor: Actor, reason: str):
    errors: Errors = {}
    before = snapshot(permit)
    for name, value in changes.items():
        setattr(permit, name, value)
    check_model(permit, errors)
    refuse(errors)
    with transaction.atomic():
        permit.save()
        audit(action, permit, actor, before=before, reason=reason)
    return permit


def permit_suspend(
    *,
    permit: Permit,
    suspended_from: date,
    suspended_until: date | None = None,
    reason: str = "",
    actor: Actor = None,
) -> Permit:
    """The permit suspended from `suspended_from` through `suspended_until` (inclusive;
    None: until further order): no right to discharge meanwhile."""
    errors: Errors = {}
    _check_open(errors, permit)
    check_order(errors, "suspended_from", suspended_from, permit.issued_on, "the permit's issue")
    check_order(errors, "suspended_until", suspended_until, suspended_from, "the suspension")
    refuse(errors)
    changes = {"suspended_from": suspended_from, "suspended_until": suspended_until}
    if suspended_until is None or suspended_until >= suspended_from:
        changes["status"] = "suspended"
    return _decide(permit, changes, "permit.suspend", actor, reason)


def permit_revoke(*, permit: Permit, revoked_on: date, reason: str = "", actor: Actor = None):
    """The permit revoked from `revoked_on`: from then the establishment holds no permit."""
    errors: Errors = {}
    _check_open(errors, permit)
    check_order(errors, "revoked_on", revoked_on, permit.issued_on, "the permit's issue")
    refuse(errors)
    changes = {"revoked_on": revoked_on, "status": "revoked", "ended_on": revoked_on}
    return _decide(permit, changes, "permit.revoke", actor, reason)


def permit_renewal_deny(*, permit: Permit, denied_on: date, reason: str = "", actor: Actor = None):
    """The renewal applied for is denied: a permit kept in effect by a timely application
    lapses that day (San Clemente 13.30.050(E))."""
    errors: Errors = {}
    _check_open(errors, permit)
    if permit.renewal_applied_on is None:
        add_error(errors, "denied_on", f"No renewal of {permit.number} was applied for.")
    else:
        check_order(errors, "denied_on", denied_on, permit.renewal_applied_on, "the application")
    refuse(errors)
    return _decide(permit, {"renewal_denied_on": denied_on}, "permit.renewal_deny", actor, reason)

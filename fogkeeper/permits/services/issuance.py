"""Issuing a permit and renewing it (a new permit superseding the old)."""

from __future__ import annotations

from datetime import date
from typing import Any

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
    check_order,
    check_positive,
    refuse,
)
from fogkeeper.rules.errors import ParameterNotInForce

from ..models import Permit, PermitApplication
from ..requirements import missing_items
from ..selectors import establishment_current_permit
from .shared import _CLOSED, _title, check_frequency

MAX_TERM = "permit.max_term"


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


def check_complete(errors: Errors, application: PermitApplication | None, override: str) -> None:
    """An application lacking items the ordinance requires is approved only on an explicit
    override with its reason: one marked "Missing. Required" was approved without a word."""
    if application is None or application.approved is not None or override.strip():
        return
    missing = missing_items(application)
    if missing:
        add_error(
            errors,
            "application",
            f"The application lacks what the ordinance requires: {', '.join(missing)}. Ask the "
            "applicant for it, or approve it anyway saying why.",
        )


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
    check_term(errors, establishment, issued_on, expires_on)
    check_frequency(errors, establishment, service_frequency_days, issued_on)
    check_model(permit, errors, exclude=["holder"] if "holder" in errors else ())
    return permit


def check_term(errors: Errors, establishment, issued_on: date, expires_on: date) -> None:
    """A permit runs at most the pack's `permit.max_term` from its issue."""
    if issued_on is None or expires_on is None or "expires_on" in errors:
        return
    pack = establishment.agency.get_pack()
    try:
        term = pack.param(MAX_TERM, issued_on)
        reference = pack.parameters[MAX_TERM].value_on(issued_on).reference
    except ParameterNotInForce:
        return
    latest = pack.calendar.add(issued_on, pack.duration(MAX_TERM, term))
    if expires_on > latest:
        add_error(
            errors,
            "expires_on",
            f"A {_title(establishment)} runs at most {term} ({reference}): issued on "
            f"{issued_on}, it expires on {latest} at the latest.",
        )


def _or(value: Any, default: Any) -> Any:
    return default if value is None else value


def _approve(application: PermitApplication | None, on: date, actor: Actor, override: str) -> None:
    """The application approved; where required items were missing, with the reviewer's
    reason stored on it and in the audit trail."""
    if application is not None and application.decided_on is None:
        before = snapshot(application)
        missing = missing_items(application)
        application.decided_on = max(on, application.submitted_on)
        application.approved = True
        application.missing_override = override.strip() if missing else ""
        application.full_clean()
        application.save()
        reason = (
            f"approved without {', '.join(missing)}: {application.missing_override}"
            if missing
            else ""
        )
        audit("application.approve", application, actor, before=before, reason=reason)


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
    missing_override: str = "",
    actor: Actor = None,
) -> Permit:
    """A new permit, to the current operator unless `holder` says otherwise; an undecided
    `application` is approved by it (one lacking required items only with `missing_override`,
    the reviewer's reason). An establishment holds one active permit: a permit in force is
    renewed (`permit_renew`), not issued again."""
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
    check_complete(errors, application, missing_override)
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
        _approve(application, issued_on, actor, missing_override)
        permit.save()
        audit("permit.issue", permit, actor)
    reevaluate_on_commit(establishment)
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
    missing_override: str = "",
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
    check_complete(errors, application, missing_override)
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
        _approve(application, issued_on, actor, missing_override)
        new.save()
        audit("permit.renew", new, actor, reason=f"renewal of {permit.number}")
    reevaluate_on_commit(permit.establishment)
    return new

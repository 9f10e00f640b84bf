"""Modification of a permit's terms, after the notice the ordinance requires, and the terms
written onto the permit on the day they take effect."""

from __future__ import annotations

from datetime import date
from hashlib import sha256
from typing import Any

from django.db import transaction

from fogkeeper.audit.services import audit_record, snapshot
from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_order,
    check_positive,
    refuse,
)
from fogkeeper.rules.errors import ParameterNotInForce

from ..documents import MODIFICATION_LETTER, modification_notice_pdf
from ..models import Permit, PermitLetter, PermitModification, discharge_limit_problems
from .shared import _CLOSED, _check_open, check_frequency

NOTICE = "permit.modification_notice_period"
NOTICE_AFTER_INSPECTION = "permit.modification_notice_inspection_period"
MODIFIABLE = (
    "service_frequency_days",
    "yellow_grease_frequency_days",
    "conditions",
    "discharge_limits",
)


def modification_notice(permit: Permit, noticed_on: date, after_inspection: bool):
    """(period, reference, earliest effective day) of the notice a modification of `permit`
    noticed on `noticed_on` needs; None when the pack sets no notice period."""
    pack = permit.agency.get_pack()
    name = NOTICE
    if after_inspection and NOTICE_AFTER_INSPECTION in pack.parameters:
        name = NOTICE_AFTER_INSPECTION
    try:
        value = pack.param(name, noticed_on)
        reference = pack.parameters[name].value_on(noticed_on).reference
    except ParameterNotInForce:
        return None
    return value, reference, pack.calendar.add(noticed_on, pack.duration(name, value))


def _check_changes(errors: Errors, permit: Permit, changes: dict[str, Any], on: date) -> None:
    for name in set(changes) - set(MODIFIABLE):
        add_error(errors, "changes", f"{name} is not a term of the permit that may be modified.")
    changed = {n: v for n, v in changes.items() if n in MODIFIABLE and getattr(permit, n) != v}
    if not changed:
        add_error(errors, "changes", f"Nothing would change in {permit.number}'s terms.")
    check_positive(
        errors,
        service_frequency_days=changes.get("service_frequency_days"),
        yellow_grease_frequency_days=changes.get("yellow_grease_frequency_days"),
    )
    check_frequency(errors, permit.establishment, changes.get("service_frequency_days"), on)
    if "discharge_limits" in changes:
        for problem in discharge_limit_problems(changes["discharge_limits"]):
            add_error(errors, "discharge_limits", problem)


def _check_inspection(errors: Errors, permit: Permit, inspection, noticed_on: date) -> None:
    if inspection is None:
        return
    if inspection.establishment_id != permit.establishment_id:
        add_error(errors, "inspection", f"{inspection} is not of {permit.establishment}.")
    elif inspection.date > noticed_on:
        add_error(errors, "inspection", f"{inspection} is after the notice ({noticed_on}).")


def _check_notice(errors, permit, noticed_on, effective_on, after_inspection) -> None:
    notice = modification_notice(permit, noticed_on, after_inspection)
    if notice is None:
        return
    period, reference, earliest = notice
    if effective_on < earliest:
        why = " after an Authorized Inspector's evaluation" if after_inspection else ""
        add_error(
            errors,
            "effective_on",
            f"The holder must have at least {period} of prior written notice{why} "
            f"({reference}): noticed on {noticed_on}, the change takes effect on {earliest} "
            "at the earliest.",
        )


def permit_modify(
    *,
    permit: Permit,
    noticed_on: date,
    effective_on: date,
    changes: dict[str, Any],
    reason: str,
    inspection=None,
    today: date,
    signer: Actor = None,
    actor: Actor = None,
) -> PermitModification:
    """A change of `permit`'s terms (`changes`: new values of MODIFIABLE fields) in effect from
    `effective_on`, no earlier than the ordinance's notice after `noticed_on` (shorter after
    an inspector's evaluation for non-compliance, `inspection`). The notice is the pack's
    letter, stored with it; the terms are written onto the permit on `effective_on`
    (`permit_modifications_apply`), at once when that is `today` or earlier."""
    errors: Errors = {}
    _check_open(errors, permit)
    if not (reason or "").strip():
        add_error(errors, "reason", "Say why the terms change (the notice states it).")
    check_order(errors, "noticed_on", noticed_on, permit.issued_on, "the permit's issue")
    check_order(errors, "effective_on", effective_on, noticed_on, "the notice")
    _check_changes(errors, permit, changes, effective_on)
    _check_inspection(errors, permit, inspection, noticed_on)
    if "effective_on" not in errors:
        _check_notice(errors, permit, noticed_on, effective_on, inspection is not None)
    if effective_on > permit.expires_on:
        add_error(errors, "effective_on", f"{permit.number} expires on {permit.expires_on}.")
    refuse(errors)
    modification = PermitModification(
        permit=permit,
        noticed_on=noticed_on,
        effective_on=effective_on,
        changes=changes,
        reason=reason.strip(),
        inspection=inspection,
    )
    pdf = modification_notice_pdf(modification, signer or actor)
    with transaction.atomic():
        modification.letter = PermitLetter.objects.create(
            permit=permit, kind=MODIFICATION_LETTER, pdf=pdf, sha256=sha256(pdf).hexdigest()
        )
        modification.save()
        _audit_modification("permit.modify", modification, actor)
        if effective_on <= today:
            _apply(modification, today, actor)
    reevaluate_on_commit(permit.establishment)
    return modification


def _audit_modification(action: str, modification: PermitModification, actor: Actor, **kw):
    audit_record(
        action=action, obj=modification, actor=actor, agency=modification.permit.agency, **kw
    )


def _apply(modification: PermitModification, on: date, actor: Actor) -> None:
    permit = modification.permit
    if permit.status in _CLOSED or permit.revoked_on is not None:
        return
    before = snapshot(permit)
    for name, value in modification.changes.items():
        setattr(permit, name, value)
    permit.full_clean()
    permit.save()
    audit(
        "permit.modification_apply",
        permit,
        actor,
        before=before,
        reason=f"modification in effect from {modification.effective_on}",
    )
    modification.applied_on = on
    modification.save(update_fields=["applied_on"])


def permit_modifications_apply(
    *, on: date, agency=None, actor: Actor = None
) -> list[PermitModification]:
    """Write onto each permit (of `agency`, or of every agency) the terms of its modifications
    in effect on `on` and not yet applied, oldest first (the case file knows a permit's terms
    only as they are now, so they change on the day the modification takes effect). Running
    it again does nothing."""
    due = (
        PermitModification.objects.filter(applied_on__isnull=True, effective_on__lte=on)
        .select_related("permit")
        .order_by("effective_on", "pk")
    )
    if agency is not None:
        due = due.filter(permit__agency=agency)
    applied = []
    for modification in due:
        with transaction.atomic():
            _apply(modification, on, actor)
            if modification.applied_on is not None:
                reevaluate_on_commit(modification.permit.establishment, as_of=on)
        if modification.applied_on is not None:
            applied.append(modification)
    return applied

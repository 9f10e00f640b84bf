"""Writes of permits and permit applications (see registry.services for the conventions)."""

from __future__ import annotations

from datetime import date
from hashlib import sha256
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from fogkeeper.audit.services import audit_record, snapshot
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_model,
    check_not_future,
    check_order,
    check_positive,
    refuse,
)
from fogkeeper.rules.errors import ParameterNotInForce
from fogkeeper.uploads import Kept, document_kind

from .documents import MODIFICATION_LETTER, modification_notice_pdf
from .models import (
    PLAN_OUTCOMES,
    Permit,
    PermitApplication,
    PermitLetter,
    PermitModification,
    PlanReview,
    discharge_limit_problems,
)
from .requirements import DETAILS, application_spec
from .selectors import establishment_current_permit

_CLOSED = ("ended", "revoked", "superseded")
MAX_TERM = "permit.max_term"
FREQUENCY_RULE = "gcd.frequency_invalid"
ALLOWED_FREQUENCIES = "gcd.allowed_frequencies_days"


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


def check_frequency(errors: Errors, establishment, days: int | None, on: date) -> None:
    """Where the ordinance lets the manager assign only some cleaning frequencies (the pack
    has `gcd.frequency_invalid`), a permit's frequency must be one of them."""
    pack = establishment.agency.get_pack()
    if days is None or not pack.has(FREQUENCY_RULE):
        return
    try:
        allowed = pack.param(ALLOWED_FREQUENCIES, on)
    except ParameterNotInForce:
        return
    if days not in allowed:
        listed = ", ".join(str(a) for a in allowed)
        add_error(
            errors,
            "service_frequency_days",
            f"{days} days is not a frequency the ordinance allows ({listed} days; "
            f"{pack.citation(FREQUENCY_RULE)}).",
        )


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
    check_not_future(errors, None, submitted_on=submitted_on)
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


# -- modification of a permit's terms, after the notice the ordinance requires --------------

NOTICE = "permit.modification_notice_period"
NOTICE_AFTER_INSPECTION = "permit.modification_notice_inspection_period"
MODIFIABLE = ("service_frequency_days", "yellow_grease_frequency_days", "conditions",
              "discharge_limits")  # fmt: skip


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
        permit=permit, noticed_on=noticed_on, effective_on=effective_on, changes=changes,
        reason=reason.strip(), inspection=inspection,
    )  # fmt: skip
    pdf = modification_notice_pdf(modification, signer or actor)
    with transaction.atomic():
        modification.letter = PermitLetter.objects.create(
            permit=permit, kind=MODIFICATION_LETTER, pdf=pdf, sha256=sha256(pdf).hexdigest()
        )
        modification.save()
        _audit_modification("permit.modify", modification, actor)
        if effective_on <= today:
            _apply(modification, today, actor)
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
    audit("permit.modification_apply", permit, actor, before=before,
          reason=f"modification in effect from {modification.effective_on}")  # fmt: skip
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
            applied.append(modification)
    return applied


# -- suspension and revocation from the enforcement decision --------------------------------

DECISIONS = ("manager_decision", "hearing_decision", "emergency_decision", "final_decision")
ORDERS = {"suspend": ("suspension_notice", "emergency_suspension"),
          "revoke": ("revocation_notice",)}  # fmt: skip


def decisions_ordering(permit: Permit, what: str) -> list:
    """The enforcement decisions of `permit`'s establishment that `what` ("suspend" or
    "revoke") the permit: a decision in a case whose notice proposed it, or an emergency
    suspension itself (RULES.md 11.8)."""
    from fogkeeper.enforcement.models import EnforcementAction

    notices = ORDERS[what]
    actions = EnforcementAction.objects.filter(establishment=permit.establishment)
    cases = actions.filter(type__in=notices).values("case_id")
    direct = [t for t in notices if t == "emergency_suspension"]
    found = actions.filter(
        Q(type__in=DECISIONS, case_id__in=cases) | Q(type__in=direct)
    ).select_related("case")
    return list(found.order_by("-taken_on", "-pk"))


def _from_decision(errors: Errors, permit: Permit, decision, what: str) -> str:
    if decision is None or decision not in decisions_ordering(permit, what):
        pack = permit.agency.get_pack()
        notice = pack.actions.get(ORDERS[what][0])
        cite = f" ({notice.citation})" if notice and notice.citation else ""
        add_error(
            errors,
            "decision",
            f"No enforcement decision orders the {_title(permit.establishment)} "
            f"{'suspended' if what == 'suspend' else 'revoked'}: it takes effect from the "
            f"decision on the notice{cite}.",
        )
        return ""
    action = permit.agency.get_pack().actions.get(decision.type)
    title = action.title if action else decision.type.replace("_", " ")
    return f"{title} {decision.code} of case {decision.case.code}"


def permit_suspend_from_decision(
    *,
    permit: Permit,
    decision,
    suspended_from: date,
    suspended_until: date | None = None,
    actor: Actor = None,
) -> Permit:
    """The permit suspended as `decision` (an EnforcementAction) orders."""
    errors: Errors = {}
    named = _from_decision(errors, permit, decision, "suspend")
    if decision is not None and not errors:
        check_order(errors, "suspended_from", suspended_from, decision.taken_on, "the decision")
    refuse(errors)
    return permit_suspend(
        permit=permit, suspended_from=suspended_from, suspended_until=suspended_until,
        reason=f"ordered by {named}", actor=actor,
    )  # fmt: skip


def permit_revoke_from_decision(
    *, permit: Permit, decision, revoked_on: date, actor: Actor = None
) -> Permit:
    """The permit revoked as `decision` (an EnforcementAction) orders."""
    errors: Errors = {}
    named = _from_decision(errors, permit, decision, "revoke")
    if decision is not None and not errors:
        check_order(errors, "revoked_on", revoked_on, decision.taken_on, "the decision")
    refuse(errors)
    return permit_revoke(
        permit=permit, revoked_on=revoked_on, reason=f"ordered by {named}", actor=actor
    )


# -- plan review (San Clemente 13.30.060(B)) -------------------------------------------------


def _plans_in_step(establishment: FoodServiceEstablishment, actor: Actor) -> None:
    """The establishment's `interceptor_plans_submitted_on` (the engine reads it) is the
    first submission of plans not returned."""
    kept = establishment.plan_reviews.exclude(outcome="returned").order_by("submitted_on")
    first = kept.first()
    value = first.submitted_on if first else None
    if establishment.interceptor_plans_submitted_on != value:
        before = snapshot(establishment)
        establishment.interceptor_plans_submitted_on = value
        establishment.save(update_fields=["interceptor_plans_submitted_on"])
        audit("establishment.plans_submitted", establishment, actor, before=before)


def _review_snapshot(review: PlanReview) -> dict[str, Any]:
    """The review as an audit row keeps it: the plans' file by its stored name."""
    return {**snapshot(review), "document": review.document.name or ""}


PLANS = Kept(field="document", name="The plans", verb="are", whose="The plans'", max_mb=25)


def _plans_kind(document, errors: Errors) -> str | None:
    """The uploaded plans' kind ("pdf", "jpg", "png"), or None when none were uploaded or
    they are refused (the reason added to `errors`)."""
    if not document:
        return None
    try:
        return document_kind(document, PLANS)
    except ValidationError as e:
        for message in e.message_dict["document"]:
            add_error(errors, "document", message)
        return None


def plan_review_submit(
    *,
    establishment: FoodServiceEstablishment,
    submitted_on: date,
    description: str,
    today: date,
    document=None,
    actor: Actor = None,
) -> PlanReview:
    """Plans of a grease control device received for review before installation, with the
    plans themselves when uploaded (a PDF, or a JPEG or PNG scan, up to 25 MB)."""
    review = PlanReview(
        establishment=establishment, submitted_on=submitted_on,
        description=(description or "").strip(),
    )  # fmt: skip
    errors: Errors = {}
    if submitted_on is not None and submitted_on > today:
        add_error(errors, "submitted_on", f"{submitted_on} is in the future (today {today}).")
    kind = _plans_kind(document, errors)
    check_model(review, errors)
    refuse(errors)
    with transaction.atomic():
        if kind is not None:
            name = f"{establishment.code}-plans-{submitted_on}.{kind}"
            review.document.save(name, document, save=False)
        review.save()
        audit("plan_review.submit", review, actor, after=_review_snapshot(review))
        _plans_in_step(establishment, actor)
    return review


def plan_review_decide(
    *,
    review: PlanReview,
    decided_on: date,
    outcome: str,
    notes: str,
    today: date,
    actor: Actor = None,
) -> PlanReview:
    """The plans approved, or returned with the corrections asked (notes required)."""
    errors: Errors = {}
    if review.decided_on is not None:
        add_error(errors, "decided_on", f"These plans were decided on {review.decided_on}.")
    check_order(errors, "decided_on", decided_on, review.submitted_on, "their submission")
    if decided_on is not None and decided_on > today:
        add_error(errors, "decided_on", f"{decided_on} is in the future (today {today}).")
    if outcome not in dict(PLAN_OUTCOMES):
        add_error(errors, "outcome", "Approve the plans or return them.")
    if outcome == "returned" and not (notes or "").strip():
        add_error(errors, "notes", "Say what must be corrected before the plans are approved.")
    refuse(errors)
    with transaction.atomic():
        before = _review_snapshot(review)
        review.decided_on, review.outcome, review.notes = decided_on, outcome, notes.strip()
        review.reviewer = actor if getattr(actor, "pk", None) else None
        review.full_clean()
        review.save()
        audit(
            f"plan_review.{outcome}", review, actor, before=before, after=_review_snapshot(review)
        )
        _plans_in_step(review.establishment, actor)
    return review

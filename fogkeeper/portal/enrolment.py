"""Enrolment: an FSE operator or a grease hauler asks an agency for an account, and the agency's
manager approves or rejects the request (ACCESS.md: a hauler is approved by each agency it
works in, so approval gives a membership of this agency only).

Approval links the request to the agency's record of the business (an existing operator or
hauler, or one registered here), records what makes the membership reach something (the
operator's tenure of its establishments, the hauler's service contracts), creates the user
when the email is new (with no password) and the membership, and emails a link to set a
password through Django's password-reset tokens. Every write has its audit row, in one
transaction: a refused decision changes nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from fogkeeper.audit.access import audited_by_caller
from fogkeeper.audit.services import audit_record, snapshot
from fogkeeper.locks import hold_row
from fogkeeper.permits.operators import operator_change
from fogkeeper.registry.haulers import contract_start
from fogkeeper.registry.models import (
    Agency,
    FoodServiceEstablishment,
    Hauler,
    Operator,
    ServiceContract,
)
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    check_model,
    check_same_agency,
    establishment_register,
    hauler_register,
    operator_register,
    refuse,
)
from fogkeeper.web.models import Membership

from .models import EnrolmentRequest

REQUIRED = {
    "operator": ("business_name", "contact_name", "email", "phone", "mailing_address"),
    "hauler": (
        "business_name",
        "contact_name",
        "email",
        "phone",
        "mailing_address",
        "service_area",
        "licence_number",
        "licence_expires_on",
    ),
}


def enrolment_request_submit(
    *,
    agency: Agency,
    kind: str,
    business_name: str,
    contact_name: str,
    email: str,
    phone: str,
    mailing_address: str,
    establishments: str = "",
    establishment_codes: Sequence[str] = (),
    service_area: str = "",
    licence_number: str = "",
    licence_expires_on: date | None = None,
    submitted_at: datetime | None = None,
) -> EnrolmentRequest:
    """A request for an account, as the visitor gave it. Refused: a missing field, an email
    that is not one, an operator naming no establishment, a hauler without its licence, and a
    second waiting request of the same email at the same agency."""
    req = EnrolmentRequest(
        agency=agency,
        kind=kind,
        business_name=business_name.strip(),
        contact_name=contact_name.strip(),
        email=email.strip().lower(),
        phone=phone.strip(),
        mailing_address=mailing_address.strip(),
        establishments=establishments.strip(),
        establishment_codes=sorted({c.strip().upper() for c in establishment_codes if c.strip()}),
        service_area=service_area.strip(),
        licence_number=licence_number.strip(),
        licence_expires_on=licence_expires_on,
        submitted_at=submitted_at or timezone.now(),
    )
    errors: Errors = {}
    for name in REQUIRED.get(kind, ()):
        if getattr(req, name) in ("", None):
            label = getattr(EnrolmentRequest._meta.get_field(name), "verbose_name", name)
            add_error(errors, name, f"Give the {label}.")
    if kind == "operator" and not (req.establishments or req.establishment_codes):
        add_error(errors, "establishments", "Name at least one establishment you run.")
    with transaction.atomic():
        lock_enrolments(agency)
        waiting = EnrolmentRequest.objects.filter(agency=agency, email=req.email, status="waiting")
        if req.email and waiting.exists():
            add_error(
                errors,
                "email",
                f"A request from {req.email} is already waiting for {agency.name}'s review; "
                "you will get an email when it is decided.",
            )
        check_model(req, errors, exclude=[n for n in errors if n != "email"])
        refuse(errors)
        req.save()
        audit_record(action="enrolment.submit", obj=req, agency=agency)
    return req


def lock_enrolments(agency: Agency) -> None:
    """Until the transaction ends, no other writer that calls this may submit or decide an
    enrolment request at `agency`: the waiting request of an email, the member of an email
    and a new hauler's code are each looked for and then stored, so the look must not be
    overtaken (two requests approved at once would both find no member)."""
    hold_row(agency)


def _user_for(req: EnrolmentRequest, errors: Errors) -> User | None:
    """The user of the request's email, if one exists; refused if it is already a member of
    the request's agency (it holds one role per agency)."""
    user = User.objects.filter(email__iexact=req.email).order_by("pk").first()
    user = user or User.objects.filter(username__iexact=req.email).first()
    if user is not None and Membership.objects.filter(user=user, agency=req.agency).exists():
        add_error(
            errors, "email", f"{req.email} already has an account acting for {req.agency.name}."
        )
    return user


def _check_waiting(req: EnrolmentRequest, errors: Errors) -> None:
    if not req.waiting:
        add_error(errors, "status", f"This request was already {req.get_status_display().lower()}.")


_NUMBERED = re.compile(r"^(.*?)(\d+)$")


def next_establishment_code(agency: Agency) -> str:
    """The agency's next establishment number by its own rule, read from the numbers it gives:
    the prefix most of them share, one more than the highest, as wide (FSE-0042 -> FSE-0043;
    the Town's T-9 -> T-10); FSE-0001 for an agency with none yet."""
    codes = agency.establishments.values_list("code", flat=True)
    numbered = [m.groups() for m in map(_NUMBERED.match, codes) if m]
    if not numbered:
        return "FSE-0001"
    prefix = Counter(p for p, _ in numbered).most_common(1)[0][0]
    digits = [n for p, n in numbered if p == prefix]
    width = max(len(n) for n in digits)
    taken = set(codes)
    n = max(int(d) for d in digits) + 1
    while f"{prefix}{n:0{width}d}" in taken:
        n += 1
    return f"{prefix}{n:0{width}d}"


def matching_operator(req: EnrolmentRequest) -> Operator | None:
    """The operator on record that is the request's business (the same name or email, case
    aside), which approval links rather than registering a duplicate."""
    operators = Operator.objects.filter(agency=req.agency).order_by("pk")
    by_name = operators.filter(name__iexact=req.business_name.strip()).first()
    return by_name or (operators.filter(email__iexact=req.email).first() if req.email else None)


def _check_operator(
    req, operator, establishments, change_on, errors: Errors, registering: bool = False
) -> None:
    """An operator's establishments are the agency's and at least one (or one registered with
    the approval); each is run by the operator now, or the change of operator is recorded
    (which needs its date)."""
    if not establishments and not registering:
        add_error(errors, "establishments", "Pick at least one establishment the operator runs.")
    for fse in establishments:
        check_same_agency(errors, "establishments", fse, req.agency)
        current = fse.current_tenure()
        runs = operator is not None and current is not None and current.operator_id == operator.pk
        if not runs and change_on is None:
            now = f"run by {current.operator}" if current else "run by no operator"
            add_error(
                errors,
                "change_on",
                f"{fse.name} ({fse.code}) is {now}: give the date this operator took over to "
                "record the change of operator, or pick the operator that runs it.",
            )


def enrolment_request_approve(
    *,
    request: EnrolmentRequest,
    actor: Actor,
    site: str,
    operator: Operator | None = None,
    establishments: Sequence[FoodServiceEstablishment] = (),
    change_on: date | None = None,
    hauler: Hauler | None = None,
    hauler_code: str = "",
    customers: Sequence[FoodServiceEstablishment] = (),
    contracts_since: date | None = None,
    decided_at: datetime | None = None,
    register: dict | None = None,
) -> Membership:
    """Approve `request`: for an operator, `operator` (None: the operator on record of the
    same name or email, else the request's business registered) and the `establishments` it
    runs, with `register` ({code, name, address, opened_on}) a new establishment registered
    as run by it, all or nothing (a change of operator on `change_on` is recorded for any
    it does not run yet, which ends the permit in force); for a hauler, `hauler` (None
    registers the request's company as `hauler_code`) and service contracts from
    `contracts_since` with the `customers` named. Emails the sign-in link (`site` is the
    address the link starts with)."""
    errors: Errors = {}
    try:
        with transaction.atomic():
            lock_enrolments(request.agency)
            request.refresh_from_db()  # decided meanwhile?
            _check_waiting(request, errors)
            user = _user_for(request, errors)
            if request.kind == "operator":
                check_same_agency(errors, "operator", operator, request.agency)
                operator = operator or matching_operator(request)
                _check_operator(
                    request, operator, establishments, change_on, errors, registering=bool(register)
                )
            else:
                _check_hauler(request, hauler, hauler_code, customers, contracts_since, errors)
            refuse(errors)
            membership = _approve(
                request,
                actor,
                user,
                operator,
                establishments,
                change_on,
                hauler,
                hauler_code,
                customers,
                contracts_since,
                decided_at or timezone.now(),
                register,
            )
    except ValidationError as e:
        raise ValidationError(
            {_ERROR_FIELDS.get(k, k): v for k, v in e.message_dict.items()}
        ) from e
    transaction.on_commit(lambda: _send_approval(membership, request, site))
    return membership


# Where the errors of the services called (operator_change, hauler_register) go on the form.
_ERROR_FIELDS = {"on": "change_on", "operator": "operator", "code": "hauler_code"}


def _check_hauler(req, hauler, hauler_code, customers, contracts_since, errors: Errors) -> None:
    check_same_agency(errors, "hauler", hauler, req.agency)
    if hauler is None and not hauler_code.strip():
        add_error(errors, "hauler_code", "Give the new hauler's code, or pick the hauler.")
    if hauler is None and Hauler.objects.filter(agency=req.agency, code=hauler_code).exists():
        add_error(errors, "hauler_code", f"A hauler of {req.agency.name} has code {hauler_code}.")
    if customers and contracts_since is None:
        add_error(errors, "contracts_since", "Give the date the service contracts start.")
    for fse in customers:
        check_same_agency(errors, "customers", fse, req.agency)
        open_ = ServiceContract.objects.filter(hauler=hauler, establishment=fse, until=None)
        if hauler is not None and open_.exists():
            add_error(errors, "customers", f"{fse.name} is already a customer of {hauler}.")


def _register_establishment(req, operator, register: dict, actor) -> FoodServiceEstablishment:
    """The request's new establishment registered as run by `operator` from its opening; its
    refusals are put on the approval form's fields for it (`new_<field>`)."""
    try:
        return establishment_register(
            agency=req.agency,
            code=register["code"].strip(),
            name=register["name"].strip(),
            address=register["address"].strip(),
            opened_on=register["opened_on"],
            operator=operator,
            today=timezone.localdate(),
            actor=actor,
        )
    except ValidationError as e:
        raise ValidationError({f"new_{k}": v for k, v in e.message_dict.items()}) from e


def _approve(
    req,
    actor,
    user,
    operator,
    establishments,
    change_on,
    hauler,
    hauler_code,
    customers,
    contracts_since,
    decided_at,
    register=None,
) -> Membership:
    """The writes of an approval (inside the caller's transaction)."""
    link: dict[str, Any] = {}
    if req.kind == "operator":
        link["operator"] = operator or operator_register(
            agency=req.agency,
            name=req.business_name,
            mailing_address=req.mailing_address,
            phone=req.phone,
            email=req.email,
            actor=actor,
        )
        if register:
            _register_establishment(req, link["operator"], register, actor)
        for fse in establishments:
            current = fse.current_tenure()
            if current is None or current.operator_id != link["operator"].pk:
                operator_change(
                    establishment=fse,
                    operator=link["operator"],
                    on=change_on,
                    actor=actor,
                    reason=f"enrolment request {req.pk}",
                )
    else:
        link["hauler"] = hauler or hauler_register(
            agency=req.agency,
            code=hauler_code.strip(),
            name=req.business_name,
            licence_number=req.licence_number,
            licence_expires_on=req.licence_expires_on,
            actor=actor,
        )
        for fse in customers:
            _contract(link["hauler"], fse, contracts_since, actor)
    with audited_by_caller():
        if user is None:
            user = User(username=req.email, email=req.email, first_name=req.contact_name[:150])
            user.set_unusable_password()
            user.save()
            audit_record(
                action="user.create",
                obj=user,
                actor=actor,
                agency=req.agency,
                after={"username": user.username, "email": user.email},
            )
        role = req.kind
        membership = Membership(user=user, agency=req.agency, role=role, **link)
        membership.full_clean()
        membership.save()
        audit_record(action="membership.create", obj=membership, actor=actor, agency=req.agency)
    _decide(req, "approved", actor, decided_at, membership=membership)
    return membership


def _contract(hauler: Hauler, establishment: FoodServiceEstablishment, since: date, actor):
    """A service contract started through registry.haulers, its refusal put on the
    approval form's fields (the customers, the date the contracts start)."""
    try:
        contract_start(hauler=hauler, establishment=establishment, since=since, actor=actor)
    except ValidationError as e:
        fields = {"establishment": "customers", "since": "contracts_since"}
        raise ValidationError(
            {fields.get(key, key): messages for key, messages in e.message_dict.items()}
        ) from None


def _decide(req, status: str, actor, decided_at, membership=None, reason: str = "") -> None:
    before = snapshot(req)
    req.status, req.decided_at, req.reason = status, decided_at, reason
    req.decided_by = actor if getattr(actor, "is_authenticated", False) else None
    req.membership = membership
    req.full_clean()
    req.save()
    action = "enrolment.approve" if status == "approved" else "enrolment.reject"
    audit_record(
        action=action, obj=req, actor=actor, agency=req.agency, before=before, reason=reason
    )


def enrolment_request_reject(
    *, request: EnrolmentRequest, reason: str, actor: Actor, decided_at: datetime | None = None
) -> EnrolmentRequest:
    """Reject `request`, saying why; the reason is emailed to whoever asked."""
    errors: Errors = {}
    with transaction.atomic():
        lock_enrolments(request.agency)
        request.refresh_from_db()  # decided meanwhile?
        _check_waiting(request, errors)
        if not reason.strip():
            add_error(errors, "reason", "Say why the request is rejected: the email tells them.")
        refuse(errors)
        _decide(request, "rejected", actor, decided_at or timezone.now(), reason=reason.strip())
    transaction.on_commit(lambda: _send_rejection(request))
    return request


def sign_in_link(user: User, site: str) -> str:
    """The link that lets `user` set a password (Django's password-reset token)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    path = reverse("web:password_reset_confirm", kwargs={"uidb64": uid, "token": token})
    return f"{site.rstrip('/')}{path}"


def _send_approval(membership: Membership, req: EnrolmentRequest, site: str) -> None:
    user = membership.user
    context = {
        "req": req,
        "user": user,
        "link": sign_in_link(user, site),
        "has_password": user.has_usable_password(),
        "login": f"{site.rstrip('/')}{reverse('web:login')}",
    }
    body = render_to_string("web/enrolment/email_approved.txt", context)
    send_mail(f"Your account with {req.agency.name}", body, None, [req.email])


def _send_rejection(req: EnrolmentRequest) -> None:
    body = render_to_string("web/enrolment/email_rejected.txt", {"req": req})
    send_mail(f"Your request to {req.agency.name}", body, None, [req.email])

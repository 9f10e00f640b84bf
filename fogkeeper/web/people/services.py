"""The agency's members: who acts for the agency and in what role (ACCESS.md: the manager keeps
the memberships of the agency's staff).

A member is invited by email: a person who already has an account (the same email) gets a
membership of this agency on it, never a second account; anyone else gets an account with no
password and a link to set one (the enrolment's `sign_in_link`). A property owner of the
agency's registry is given an account the same way. A role is changed, or a membership ended
(deleted: the person loses access at their next request), but the agency always keeps a
manager. Every write has its audit row in the same transaction; a refused one changes nothing.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse

from fogkeeper.audit.access import audited_by_caller
from fogkeeper.audit.services import audit_record, snapshot
from fogkeeper.locks import hold_row
from fogkeeper.portal.enrolment import sign_in_link
from fogkeeper.registry.models import Agency, PropertyOwner
from fogkeeper.registry.services import Actor, Errors, add_error, check_same_agency, refuse

from ..models import ROLES, STAFF_ROLES, Membership
from ..vocabulary import role_word

# The roles a manager gives from the members' pages: the staff's, and a property owner's.
# Operators and haulers get theirs by enrolment, which links their business on record.
INVITED_ROLES = [role for role, _ in ROLES if role in STAFF_ROLES] + ["owner"]


def role_title(agency: Agency, role: str) -> str:
    """A role in the agency's own words (the pack's "Utilities Manager"), else plain words."""
    return agency.get_pack().titles.get(role) or role_word(role)


def person_name(user: User) -> str:
    return user.get_full_name() or user.get_username()


def _existing_user(email: str) -> User | None:
    """The account of `email`, if one exists (its email or its user name)."""
    found = User.objects.filter(email__iexact=email).order_by("pk").first()
    return found or User.objects.filter(username__iexact=email).order_by("pk").first()


def _check_invite(agency, name, email, role, owner, errors: Errors) -> User | None:
    """Validate an invitation; the existing account of the email, if any."""
    if not name:
        add_error(errors, "name", "Give the person's name.")
    if role not in INVITED_ROLES:
        words = ", ".join(role_title(agency, r) for r in INVITED_ROLES)
        add_error(errors, "role", f"Pick one of the roles: {words}.")
    if role == "owner" and owner is None:
        add_error(errors, "owner", "Pick the property owner this account acts for.")
    if role != "owner" and owner is not None:
        add_error(errors, "owner", "Only a property owner's account names a property owner.")
    check_same_agency(errors, "owner", owner, agency)
    if not email:
        add_error(errors, "email", "Give the email address the sign-in link is sent to.")
        return None
    try:
        validate_email(email)
    except ValidationError:
        add_error(errors, "email", f"{email} is not an email address.")
        return None
    user = _existing_user(email)
    held = Membership.objects.filter(user=user, agency=agency).first() if user else None
    if held is not None:
        add_error(
            errors,
            "email",
            f"{email} already acts for {agency.name} as {role_title(agency, held.role)}: "
            "change that membership's role instead.",
        )
    return user


def membership_invite(
    *,
    agency: Agency,
    name: str,
    email: str,
    role: str,
    actor: Actor,
    site: str,
    owner: PropertyOwner | None = None,
) -> Membership:
    """Give `email` a membership of `agency` in `role` (for a property owner, naming `owner`),
    on the person's existing account or a new one with no password, and email the link to sign
    in (`site` is the address the link starts with)."""
    name, email = name.strip(), email.strip().lower()
    errors: Errors = {}
    user = _check_invite(agency, name, email, role, owner, errors)
    refuse(errors)
    with transaction.atomic(), audited_by_caller():
        if user is None:
            user = User(username=email, email=email, first_name=name[:150])
            user.set_unusable_password()
            user.save()
            audit_record(
                action="user.create",
                obj=user,
                actor=actor,
                agency=agency,
                after={"username": user.username, "email": user.email},
            )
        membership = Membership(user=user, agency=agency, role=role, owner=owner)
        membership.full_clean()
        membership.save()
        audit_record(
            action="membership.create",
            obj=membership,
            actor=actor,
            agency=agency,
            after=_described(membership),
        )
    transaction.on_commit(lambda: _send_invitation(membership, email, site))
    return membership


def membership_link_owner(
    *, owner: PropertyOwner, actor: Actor, site: str, email: str = "", name: str = ""
) -> Membership:
    """Give a property owner of the registry an account (role owner) reaching the
    establishments on its parcels; the email and name default to the owner's on record."""
    return membership_invite(
        agency=owner.agency,
        name=name or owner.name,
        email=email or owner.email,
        role="owner",
        owner=owner,
        actor=actor,
        site=site,
    )


def _described(membership: Membership) -> dict:
    """The membership as the audit row keeps it: its fields, and whose it is."""
    user = membership.user
    return {**snapshot(membership), "username": user.get_username(), "email": user.email}


def _lock_managers(agency: Agency) -> None:
    """Until the transaction ends, no other writer that calls this may change who manages
    `agency`: two managers demoting each other at once would each still see the other."""
    hold_row(agency)


def _check_keeps_a_manager(membership: Membership, errors: Errors, field: str, what: str):
    """The agency must keep a manager: its only manager's membership may not lose the role.
    Called with the agency's managers locked (`_lock_managers`), so the count holds."""
    if membership.role != "manager":
        return
    others = Membership.objects.filter(agency=membership.agency, role="manager")
    if not others.exclude(pk=membership.pk).exists():
        title = role_title(membership.agency, "manager")
        add_error(
            errors,
            field,
            f"{person_name(membership.user)} is {membership.agency.name}'s only {title}: "
            f"make another member {title} before {what}, or nobody could keep the agency's "
            "members.",
        )


def membership_role_change(*, membership: Membership, role: str, actor: Actor) -> Membership:
    """Change a staff member's role; the new role applies at their next request."""
    agency = membership.agency
    errors: Errors = {}
    if not membership.is_staff_role:
        add_error(
            errors,
            "role",
            f"A {role_title(agency, membership.role)}'s account reaches only its own records: "
            "end it and invite the person as staff instead.",
        )
    elif role not in STAFF_ROLES:
        words = ", ".join(role_title(agency, r) for r in INVITED_ROLES if r in STAFF_ROLES)
        add_error(errors, "role", f"Pick one of the staff roles: {words}.")
    elif role == membership.role:
        add_error(
            errors,
            "role",
            f"{person_name(membership.user)} already is {role_title(agency, role)}.",
        )
    refuse(errors)
    with transaction.atomic(), audited_by_caller():
        _lock_managers(agency)
        _check_keeps_a_manager(membership, errors, "role", "changing this role")
        refuse(errors)
        before = _described(membership)
        membership.role = role
        membership.full_clean()
        membership.save()
        audit_record(
            action="membership.role_change",
            obj=membership,
            actor=actor,
            agency=agency,
            before=before,
            after=_described(membership),
        )
    return membership


def membership_end(*, membership: Membership, actor: Actor, reason: str = "") -> None:
    """End a membership: it is deleted, so the person loses access to the agency at their next
    request; the audit row keeps whose it was, in what role, and when it ended."""
    errors: Errors = {}
    with transaction.atomic(), audited_by_caller():
        _lock_managers(membership.agency)
        _check_keeps_a_manager(membership, errors, "membership", "ending this membership")
        refuse(errors)
        before = _described(membership)
        audit_record(
            action="membership.end",
            obj=membership,
            actor=actor,
            agency=membership.agency,
            before=before,
            after=None,
            reason=reason.strip(),
        )
        membership.delete()


def _send_invitation(membership: Membership, email: str, site: str) -> None:
    user, agency = membership.user, membership.agency
    context = {
        "membership": membership,
        "agency": agency,
        "name": person_name(user),
        "role": role_title(agency, membership.role),
        "user": user,
        "has_password": user.has_usable_password(),
        "link": sign_in_link(user, site),
        "login": f"{site.rstrip('/')}{reverse('web:login')}",
    }
    body = render_to_string("web/members/email_invited.txt", context)
    send_mail(f"Your account with {agency.name}", body, None, [email])

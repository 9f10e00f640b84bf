"""The members' pages: who acts for the agency and in what role. The agency's staff read them;
the manager (policy kind "membership") invites people, changes a staff member's role and ends
a membership. Another agency's membership answers 404."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render

from fogkeeper.audit.models import AuditEvent
from fogkeeper.registry.models import PropertyOwner

from ..common import policy
from ..common.forms import put_errors
from ..common.pages import PAGE_SIZE, agency_page, reads_only
from ..models import ROLES, Membership
from .forms import EndForm, InviteForm, RoleForm
from .selectors import ended_members, member_history, member_list
from .services import (
    membership_end,
    membership_invite,
    membership_role_change,
    person_name,
    role_title,
)

KIND = "membership"
ENDED_SHOWN = 10


@agency_page
@reads_only
def members(request):
    """The agency's memberships, searched (`?q=`) and of one role (`?role=`), paginated, with
    the memberships most recently ended."""
    agency = request.agency
    q = request.GET.get("q", "").strip()
    role = request.GET.get("role", "")
    role = role if role in dict(ROLES) else ""
    page = Paginator(member_list(agency=agency, q=q, role=role), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    ended = list(ended_members(agency=agency)[:ENDED_SHOWN])
    row: Any  # a membership, or the audit row of one ended
    for row in [*page.object_list, *ended]:
        held: Any = (row.before or {}).get("role") if isinstance(row, AuditEvent) else row.role
        row.role_title = role_title(agency, held)
    context = {
        "page": page,
        "q": q,
        "role": role,
        "query": urlencode({k: v for k, v in (("q", q), ("role", role)) if v}),
        "roles": [(r, role_title(agency, r)) for r, _ in ROLES],
        "ended": ended,
        "may_write": policy.may_write(request.user, agency, KIND),
    }
    return render(request, "web/members/list.html", context)


@agency_page
def member_invite(request):
    """Invite a staff member, or give a property owner on record an account (`?owner=`)."""
    policy.require_write(request.user, request.agency, KIND)
    data = request.POST if request.method == "POST" else None
    form = InviteForm(data, agency=request.agency, initial=_owner_initial(request))
    if form.is_valid():
        try:
            membership = membership_invite(
                agency=request.agency,
                actor=request.user,
                site=request.build_absolute_uri("/"),
                **form.cleaned_data,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            messages.success(
                request,
                f"{person_name(membership.user)} now acts for {request.agency.name} as "
                f"{role_title(request.agency, membership.role)}; {form.cleaned_data['email']} "
                "was emailed how to sign in.",
            )
            return redirect("web:member", pk=membership.pk)
    status = 400 if form.is_bound else 200
    return render(request, "web/members/invite.html", {"form": form}, status=status)


def _owner_initial(request) -> dict:
    """The invitation's fields for the property owner `?owner=` names, if it is the agency's."""
    pk = request.GET.get("owner", "")
    found = PropertyOwner.objects.filter(agency=request.agency, pk=pk) if pk.isdigit() else None
    owner = found.first() if found is not None else None
    if owner is None:
        return {}
    return {"role": "owner", "owner": owner, "name": owner.name, "email": owner.email}


def _member(request, pk: int) -> Membership:
    return get_object_or_404(
        Membership.objects.select_related("user", "operator", "hauler", "owner"),
        agency=request.agency,
        pk=pk,
    )


def _detail(request, membership, role_form=None, end_form=None, status: int = 200):
    agency = request.agency
    context = {
        "member": membership,
        "name": person_name(membership.user),
        "role_title": role_title(agency, membership.role),
        "history": [(e, _happened(agency, e)) for e in member_history(membership)],
        "role_form": role_form or RoleForm(agency=agency, initial={"role": membership.role}),
        "end_form": end_form or EndForm(),
        "may_write": policy.may_write(request.user, agency, KIND),
        "is_self": membership.user_id == request.user.pk,
    }
    return render(request, "web/members/member.html", context, status=status)


def _happened(agency, event: AuditEvent) -> str:
    """An audit row of a membership in words."""
    before, after = event.before or {}, event.after or {}
    if event.action == "membership.create":
        return f"Given the role {role_title(agency, after.get('role', ''))}"
    if event.action == "membership.role_change":
        was, now = before.get("role", ""), after.get("role", "")
        return f"Role changed from {role_title(agency, was)} to {role_title(agency, now)}"
    return event.action.replace("membership.", "Membership ").replace("_", " ")


@agency_page
@reads_only
def member(request, pk: int):
    """One membership: whose, what role, tied to what, and its audit trail."""
    return _detail(request, _member(request, pk))


@agency_page
def member_role(request, pk: int):
    """Change a staff member's role (the new role applies at their next request)."""
    membership = _member(request, pk)
    policy.require_write(request.user, request.agency, KIND)
    if request.method != "POST":
        return _detail(request, membership)
    form = RoleForm(request.POST, agency=request.agency)
    if form.is_valid():
        try:
            membership_role_change(
                membership=membership, role=form.cleaned_data["role"], actor=request.user
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            messages.success(
                request,
                f"{person_name(membership.user)} is now "
                f"{role_title(request.agency, membership.role)}; the new role applies from "
                "their next page.",
            )
            return redirect("web:member", pk=membership.pk)
    membership.refresh_from_db()
    return _detail(request, membership, role_form=form, status=400)


@agency_page
def member_end(request, pk: int):
    """End a membership: the person loses access to the agency at their next request."""
    membership = _member(request, pk)
    policy.require_write(request.user, request.agency, KIND)
    if request.method != "POST":
        return _detail(request, membership)
    form = EndForm(request.POST)
    if form.is_valid():
        name, own = person_name(membership.user), membership.user_id == request.user.pk
        try:
            membership_end(
                membership=membership, actor=request.user, reason=form.cleaned_data["reason"]
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            messages.success(
                request,
                f"{name} no longer acts for {request.agency.name}: their access ended. The "
                "audit trail keeps who held the membership, in what role, and when it ended.",
            )
            return redirect("web:home" if own else "web:members")
    return _detail(request, membership, end_form=form, status=400)

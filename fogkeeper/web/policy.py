"""Who may read which agency's records: decided here, for every page (ACCESS.md).

A superuser reads every agency; anyone else reads the agencies of their memberships. A record
of an agency one may not read answers 404, as if it did not exist."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from fogkeeper.registry.models import Agency

SESSION_KEY = "fogkeeper_agency"


def readable_agencies(user):
    if not user.is_authenticated or not user.is_active:
        return Agency.objects.none()
    if user.is_superuser:
        return Agency.objects.order_by("name")
    return Agency.objects.filter(memberships__user=user).order_by("name")


def current_agency(request) -> Agency | None:
    """The agency the request acts for: the one chosen in the session if still readable
    (a removed membership ends access at once), otherwise the first readable one."""
    agencies = list(readable_agencies(request.user))
    chosen = request.session.get(SESSION_KEY)
    for agency in agencies:
        if agency.pk == chosen:
            return agency
    return agencies[0] if agencies else None


def choose_agency(request, code: str) -> Agency:
    agency = readable_agencies(request.user).filter(code=code).first()
    if agency is None:
        raise Http404("no such agency")
    request.session[SESSION_KEY] = agency.pk
    return agency


# What each agency role may write on the staff pages (ACCESS.md); a superuser writes all.
WRITES = {
    "manager": {"service", "training", "inspection", "incident", "permit", "operator_change"},
    "inspector": {"service", "training", "inspection", "incident", "operator_change"},
    "clerk": set(),
    "auditor": set(),
}


def may_write(user, agency: Agency, kind: str) -> bool:
    """Whether `user`, acting for `agency`, may record a `kind` (a key of WRITES' sets)."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    roles = user.memberships.filter(agency=agency).values_list("role", flat=True)
    return any(kind in WRITES.get(role, ()) for role in roles)


def require_write(user, agency: Agency, kind: str) -> None:
    if not may_write(user, agency, kind):
        raise PermissionDenied(f"your role at {agency} may not record this")

"""Reads of the members' pages: the agency's memberships, since when each holds, and the audit
trail of one."""

from __future__ import annotations

from django.db.models import CharField, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Cast, Coalesce

from fogkeeper.audit.models import AuditEvent
from fogkeeper.registry.models import Agency

from ..models import Membership

OBJECT_TYPE = Membership._meta.label_lower


def _trail(**filters) -> QuerySet[AuditEvent]:
    return AuditEvent.objects.filter(object_type=OBJECT_TYPE, **filters)


def member_list(*, agency: Agency, q: str = "", role: str = "") -> QuerySet[Membership]:
    """The agency's memberships by name, searched by name, email or what they are tied to
    (`q`), of one role (`role`). Each has `since`: when the audit trail saw it made, else when
    the person's account was (memberships given before the trail, in the admin)."""
    made = _trail(action="membership.create", object_id=Cast(OuterRef("pk"), CharField()))
    found = (
        Membership.objects.filter(agency=agency)
        .select_related("user", "operator", "hauler", "owner")
        .annotate(
            since=Coalesce(Subquery(made.order_by("at").values("at")[:1]), F("user__date_joined"))
        )
        .order_by("user__first_name", "user__last_name", "user__username")
    )
    if role:
        found = found.filter(role=role)
    if q:
        found = found.filter(
            Q(user__first_name__icontains=q)
            | Q(user__last_name__icontains=q)
            | Q(user__email__icontains=q)
            | Q(user__username__icontains=q)
            | Q(operator__name__icontains=q)
            | Q(hauler__name__icontains=q)
            | Q(owner__name__icontains=q)
        )
    return found


def member_history(membership: Membership) -> QuerySet[AuditEvent]:
    """What the audit trail recorded of the membership, newest first."""
    return _trail(object_id=str(membership.pk)).select_related("actor")


def ended_members(*, agency: Agency) -> QuerySet[AuditEvent]:
    """The memberships of the agency that were ended, newest first (the audit rows keep them)."""
    return _trail(action="membership.end", agency=agency).select_related("actor")

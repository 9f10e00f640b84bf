"""The people of database tests: alice works for the agency; the audit trail names her."""

from django.contrib.auth import get_user_model

from fogkeeper.audit.models import AuditEvent


def alice():
    return get_user_model().objects.get_or_create(username="alice")[0]


def events(action: str | None = None) -> list[AuditEvent]:
    qs = AuditEvent.objects.order_by("id")
    return list(qs.filter(action=action) if action else qs)

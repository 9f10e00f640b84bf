"""Writes of the API's own records: a person's API token."""

from __future__ import annotations

from django.db import transaction
from rest_framework.authtoken.models import Token

from fogkeeper.audit.access import audited_by_caller
from fogkeeper.audit.services import audit_record
from fogkeeper.registry.services import Actor


def token_rotate(*, user, actor: Actor) -> Token:
    """A new API token for `user`; the old one, if any, stops working at once. The audit row
    says when, never the token itself."""
    with transaction.atomic(), audited_by_caller():
        had = Token.objects.filter(user=user).delete()[0] > 0
        token = Token.objects.create(user=user)
        audit_record(
            action="api_token.rotate" if had else "api_token.issue",
            obj=user,
            actor=actor,
            before=None,
            after={"token_created": token.created.isoformat()},
        )
    return token

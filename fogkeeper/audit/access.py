"""Who may do what: every change of it is an audit row, whatever made it (the admin, a page, a
command, the shell).

A change of who may do what is a membership created, changed or ended; an account's flags
(active, staff, superuser), names or password; the groups and permissions of an account or a
group; an API token issued or revoked. The model signals write the row in the transaction of
the change (pre_save and pre_delete keep the record as it was, post_save, post_delete and
m2m_changed write before and after). The person acting is the signed-in user of the request
being served (`ActorMiddleware` keeps it for the request's duration); a change made outside
any request (a command, the shell) names no one: the system.

An account alone reaches nothing, so a new one is a row only when it is made from a page (the
admin's) or made staff or superuser; what it then may do comes with a membership, a group or a
permission, each a row. A service that writes its own richer row for such a change (the
members' pages, enrolment, token rotation) does its writes inside `audited_by_caller()`, so
the change is not written twice. A password is recorded as changed, never its hash, and a
token by the first characters of its key only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models.signals import (
    ModelSignal,
    m2m_changed,
    post_delete,
    post_save,
    pre_delete,
    pre_save,
)

from .services import audit_record, snapshot

_request: ContextVar[Any] = ContextVar("audit_request", default=None)
_quiet: ContextVar[bool] = ContextVar("audit_access_quiet", default=False)

USER_FIELDS = (
    "username",
    "first_name",
    "last_name",
    "email",
    "is_active",
    "is_staff",
    "is_superuser",
)
TOKEN_SHOWN = 6  # characters of a token's key an audit row or the admin shows
# A token is saved or deleted as itself or through a proxy (the admin's): signals name each.
TOKENS = ("authtoken.Token", "authtoken.TokenProxy", "api.ApiToken")


class ActorMiddleware:
    """Keeps the request being served, so that a change of who may do what names who acted
    (read when the row is written: an API call's token user is known by then)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _request.set(request)
        try:
            return self.get_response(request)
        finally:
            _request.reset(token)


def acting_user():
    """The signed-in user of the request being served; None outside requests (the system)."""
    user = getattr(_request.get(), "user", None)
    return user if getattr(user, "is_authenticated", False) else None


@contextmanager
def audited_by_caller() -> Iterator[None]:
    """The writes inside are audited by the caller itself: the signals write no row."""
    token = _quiet.set(True)
    try:
        yield
    finally:
        _quiet.reset(token)


def token_shown(key: str) -> str:
    """A token's key as it may be shown: its first characters only."""
    return f"{key[:TOKEN_SHOWN]}…" if key else ""


def _write(action: str, obj, *, before, after, agency=None) -> None:
    audit_record(
        action=action, obj=obj, actor=acting_user(), agency=agency, before=before, after=after
    )


# -- memberships ------------------------------------------------------------------------------


def _membership(membership) -> dict[str, Any]:
    user = membership.user
    return {**snapshot(membership), "username": user.get_username(), "email": user.email}


def _membership_before(sender, instance, raw=False, **kwargs):
    if raw or instance.pk is None:
        return
    old = sender._default_manager.filter(pk=instance.pk).select_related("user").first()
    instance._audit_before = _membership(old) if old is not None else None


def _membership_saved(sender, instance, created, raw=False, **kwargs):
    before = instance.__dict__.pop("_audit_before", None)
    if raw or _quiet.get():
        return
    after = _membership(instance)
    if created or before is None:
        _write("membership.create", instance, before=None, after=after, agency=instance.agency)
    elif before != after:
        role_changed = before["role"] != after["role"]
        action = "membership.role_change" if role_changed else "membership.change"
        _write(action, instance, before=before, after=after, agency=instance.agency)


def _membership_deleting(sender, instance, **kwargs):
    instance._audit_before = _membership(instance)


def _membership_deleted(sender, instance, **kwargs):
    before = instance.__dict__.pop("_audit_before", None)
    if not _quiet.get():
        _write("membership.end", instance, before=before, after=None, agency=instance.agency)


# -- accounts ---------------------------------------------------------------------------------


def _account(user) -> dict[str, Any]:
    return {name: getattr(user, name) for name in USER_FIELDS}


def _user_before(sender, instance, raw=False, update_fields=None, **kwargs):
    if raw or instance.pk is None:
        return
    if update_fields is not None and set(update_fields) <= {"last_login", "password"}:
        return  # signing in: the time of it, and the same password hashed anew (a stronger hasher)
    old = sender._default_manager.filter(pk=instance.pk).first()
    if old is not None:
        instance._audit_before = (_account(old), old.password)


def _user_saved(sender, instance, created, raw=False, **kwargs):
    kept = instance.__dict__.pop("_audit_before", None)
    if raw or _quiet.get():
        return
    after = _account(instance)
    if created:
        if acting_user() is not None or instance.is_staff or instance.is_superuser:
            _write("user.create", instance, before=None, after=after)
        return
    if kept is None:
        return
    before, password = kept
    changed = {n for n in USER_FIELDS if before[n] != after[n]}
    if instance.password != password:
        action = "user.change" if changed else "user.password_change"
        _write(action, instance, before=before, after={**after, "password": "changed"})
    elif changed:
        _write("user.change", instance, before=before, after=after)


def _user_deleted(sender, instance, **kwargs):
    if not _quiet.get():
        _write("user.delete", instance, before=_account(instance), after=None)


# -- API tokens -------------------------------------------------------------------------------


def _token(token) -> dict[str, Any]:
    created = token.created.isoformat() if token.created else None
    return {"token": token_shown(token.key), "token_created": created}


def _token_saved(sender, instance, created, raw=False, **kwargs):
    if created and not raw and not _quiet.get():
        _write("api_token.issue", instance.user, before=None, after=_token(instance))


def _token_deleted(sender, instance, **kwargs):
    if not _quiet.get():
        _write("api_token.revoke", instance.user, before=_token(instance), after=None)


# -- groups, and the groups and permissions of accounts and groups ----------------------------


def _group_before(sender, instance, raw=False, **kwargs):
    if raw or instance.pk is None:
        return
    old = sender._default_manager.filter(pk=instance.pk).first()
    instance._audit_before = {"name": old.name} if old is not None else None


def _group_saved(sender, instance, created, raw=False, **kwargs):
    before = instance.__dict__.pop("_audit_before", None)
    if raw or _quiet.get():
        return
    after = {"name": instance.name}
    if created:
        _write("group.create", instance, before=None, after=after)
    elif before is not None and before != after:
        _write("group.change", instance, before=before, after=after)


def _group_deleting(sender, instance, **kwargs):
    instance._audit_before = {
        "name": instance.name,
        "permissions": _permissions(instance),
        "members": sorted(instance.user_set.values_list("username", flat=True)),
    }


def _group_deleted(sender, instance, **kwargs):
    before = instance.__dict__.pop("_audit_before", None)
    if not _quiet.get():
        _write("group.delete", instance, before=before, after=None)


def _permission_name(permission) -> str:
    return f"{permission.content_type.app_label}.{permission.codename}"


def _permissions(owner) -> list[str]:
    field = "permissions" if isinstance(owner, Group) else "user_permissions"
    rows = getattr(owner, field).select_related("content_type")
    return sorted(_permission_name(p) for p in rows)


def _groups(user) -> list[str]:
    return sorted(user.groups.values_list("name", flat=True))


def _m2m_specs() -> dict[type, tuple[str, str, str, str, Any]]:
    """For each relation: (owner's field on the through table, item's field, action, the key
    of before and after, how to list an owner's items)."""
    User = get_user_model()
    return {
        Group.permissions.through: (
            "group",
            "permission",
            "group.permissions_change",
            "permissions",
            _permissions,
        ),
        User.groups.through: ("user", "group", "user.groups_change", "groups", _groups),
        User.user_permissions.through: (
            "user",
            "permission",
            "user.permissions_change",
            "permissions",
            _permissions,
        ),
    }


def _m2m_changed(sender, instance, action, reverse, model, pk_set, **kwargs):
    spec = _m2m_specs().get(sender)
    if spec is None or _quiet.get():
        return
    owner_field, item_field, event, key, listed = spec
    phase, _, _ = action.partition("_")
    kept = instance.__dict__.setdefault("_audit_m2m", {})
    if phase == "pre":
        if not reverse:
            owners = [instance]
        else:
            owner_model = sender._meta.get_field(owner_field).related_model
            if pk_set is None:  # clear: every owner holding the item
                ids = sender.objects.filter(**{item_field: instance.pk}).values(owner_field)
                owners = list(owner_model._default_manager.filter(pk__in=ids))
            else:
                owners = list(owner_model._default_manager.filter(pk__in=pk_set))
        kept[sender] = [(owner, listed(owner)) for owner in owners]
        return
    for owner, before in kept.pop(sender, []):
        after = listed(owner)
        if after != before:
            _write(event, owner, before={key: before}, after={key: after})


def connect() -> None:
    User = get_user_model()
    pairs: list[tuple[ModelSignal, Callable[..., Any], Any]] = [
        (pre_save, _membership_before, "web.Membership"),
        (post_save, _membership_saved, "web.Membership"),
        (pre_delete, _membership_deleting, "web.Membership"),
        (post_delete, _membership_deleted, "web.Membership"),
        (pre_save, _user_before, User),
        (post_save, _user_saved, User),
        (post_delete, _user_deleted, User),
        *[(post_save, _token_saved, token) for token in TOKENS],
        *[(post_delete, _token_deleted, token) for token in TOKENS],
        (pre_save, _group_before, Group),
        (post_save, _group_saved, Group),
        (pre_delete, _group_deleting, Group),
        (post_delete, _group_deleted, Group),
    ]
    for signal, handler, sender in pairs:
        uid = f"audit.access.{handler.__name__}.{sender}"
        signal.connect(handler, sender=sender, dispatch_uid=uid)
    m2m_changed.connect(_m2m_changed, dispatch_uid="audit.access.m2m")

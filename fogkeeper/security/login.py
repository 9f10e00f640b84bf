"""Sign-in throttling: after settings.FOGKEEPER_LOGIN_FAILURES failed sign-ins for one username
from one address within FOGKEEPER_LOGIN_WINDOW_SECONDS, the sign-in forms (the staff pages' and
the admin's) refuse further attempts for that username and address until the window ends,
with a message saying so (429). A successful sign-in clears that count. An address with
FOGKEEPER_LOGIN_ADDRESS_FAILURES failures in the window, whatever the usernames, is refused
likewise (a successful sign-in does not clear this count: one's own account must not reset
the guesses at others').

The username is counted as Django compares it: its sign-in form NFKC-normalizes what is typed
(`ｔhrottle1` is `throttle1`), and case is folded on top, which only counts more strictly.

Failures are counted in the cache, from Django's own `user_login_failed` signal, so whatever
authenticates with a password counts. The cache is shared by every server process (the
database's by default; settings refuse a per-process one in production)."""

from __future__ import annotations

import contextlib
import hashlib
import unicodedata

from django.conf import settings
from django.contrib.auth import user_logged_in, user_login_failed
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpResponse
from django.shortcuts import render, resolve_url
from django.urls import NoReverseMatch, reverse

STATUS = 429


def normalized(username: str) -> str:
    """The username as the sign-in form hands it to the backend (NFKC), case folded."""
    nfkc = unicodedata.normalize("NFKC", username.strip())
    return unicodedata.normalize("NFKC", nfkc.casefold())


def _key(username: str, address: str) -> str:
    digest = hashlib.sha256(f"{normalized(username)}|{address}".encode()).hexdigest()
    return f"fogkeeper:login-failures:{digest}"


def _address_key(address: str) -> str:
    digest = hashlib.sha256(address.encode()).hexdigest()
    return f"fogkeeper:login-failures-address:{digest}"


def _address(request) -> str:
    return request.META.get("REMOTE_ADDR", "") if request is not None else ""


def failures(username: str, address: str) -> int:
    return cache.get(_key(username, address), 0)


def address_failures(address: str) -> int:
    return cache.get(_address_key(address), 0)


def locked_out(username: str, address: str) -> bool:
    return failures(username, address) >= settings.FOGKEEPER_LOGIN_FAILURES


def address_locked_out(address: str) -> bool:
    return address_failures(address) >= settings.FOGKEEPER_LOGIN_ADDRESS_FAILURES


def message(*, whole_address: bool = False) -> str:
    minutes = max(1, round(settings.FOGKEEPER_LOGIN_WINDOW_SECONDS / 60))
    if whole_address:
        return (
            f"Too many failed sign-ins from your address. For the safety of everyone's "
            f"accounts, signing in from it is paused: try again in {minutes} minutes."
        )
    return (
        f"Too many failed sign-ins for this username from your address. For your account's "
        f"safety, signing in is paused: try again in {minutes} minutes."
    )


def _count(key: str) -> None:
    cache.add(key, 0, timeout=settings.FOGKEEPER_LOGIN_WINDOW_SECONDS)
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=settings.FOGKEEPER_LOGIN_WINDOW_SECONDS)


@receiver(user_login_failed)
def count_failure(sender, credentials, request=None, **kwargs) -> None:
    username = (credentials or {}).get("username")
    if request is None or not username:
        return
    _count(_key(username, _address(request)))
    _count(_address_key(_address(request)))


@receiver(user_logged_in)
def clear_failures(sender, request=None, user=None, **kwargs) -> None:
    if request is not None and user is not None:
        cache.delete(_key(user.get_username(), _address(request)))


def _guarded_paths() -> set[str]:
    paths = {resolve_url(settings.LOGIN_URL)}
    with contextlib.suppress(NoReverseMatch):
        paths.add(reverse("admin:login"))
    return paths


class LoginThrottleMiddleware:
    """Refuses a sign-in attempt (POST to a sign-in form) while its username and address, or
    its address alone, are locked out, before the password is even checked."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "POST" and request.path in _guarded_paths():
            username, address = request.POST.get("username", ""), _address(request)
            if address_locked_out(address):
                return self.refuse(request, message(whole_address=True))
            if username and locked_out(username, address):
                return self.refuse(request, message())
        return self.get_response(request)

    def refuse(self, request, text: str):
        if request.path != resolve_url(settings.LOGIN_URL):
            return HttpResponse(text, status=STATUS, content_type="text/plain")
        form = AuthenticationForm(request, initial={"username": request.POST.get("username")})
        form.full_clean()  # an unbound form: no errors and no cleaned data until this
        form.cleaned_data = {}
        form.add_error(None, text)
        context = {"form": form, "next": request.POST.get("next", "")}
        return render(request, "web/login.html", context, status=STATUS)

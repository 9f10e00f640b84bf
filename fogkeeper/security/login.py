"""Sign-in throttling: after settings.FOGKEEPER_LOGIN_FAILURES failed sign-ins for one username
from one address within FOGKEEPER_LOGIN_WINDOW_SECONDS, the sign-in forms (the staff pages' and
the admin's) refuse further attempts for that username and address until the window ends,
with a message saying so (429). A successful sign-in clears that count. An address with
FOGKEEPER_LOGIN_ADDRESS_FAILURES failures in the window, whatever the usernames, is refused
likewise (a successful sign-in does not clear this count: one's own account must not reset
the guesses at others').

The username is counted as Django compares it: its sign-in form NFKC-normalizes what is typed
(`ｔhrottle1` is `throttle1`), and case is folded on top, which only counts more strictly.

Failures are counted in the cache, which every server process shares (the database's by
default; settings refuse a per-process one in production). A sign-in form's attempt takes its
place in the counts, in one step (fogkeeper.security.counts), before the password is checked,
and is refused if that place is past the limit: guesses sent at once cannot all read the same
count and all be checked (issue 37, item 12). An attempt whose password was right, or never
checked (an incomplete form), gives its place back. Whatever else authenticates with a
password counts its failures from Django's own `user_login_failed` signal."""

from __future__ import annotations

import contextlib
import hashlib
import unicodedata
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import user_logged_in, user_login_failed
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpResponse
from django.shortcuts import render, resolve_url
from django.urls import NoReverseMatch, reverse

from .counts import count, uncount

STATUS = 429
ATTEMPT = "_fogkeeper_sign_in_attempt"  # the request's attribute holding its Attempt


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


def _count(key: str) -> int:
    return count(key, settings.FOGKEEPER_LOGIN_WINDOW_SECONDS)


@dataclass
class Attempt:
    """A sign-in form's attempt, counted as a failure until its password is found right."""

    keys: list[str]
    checked: bool = False


def _attempt(request) -> Attempt | None:
    return getattr(request, ATTEMPT, None) if request is not None else None


@receiver(user_login_failed)
def count_failure(sender, credentials, request=None, **kwargs) -> None:
    username = (credentials or {}).get("username")
    if (attempt := _attempt(request)) is not None:
        attempt.checked = True  # counted when it began
        return
    if request is None or not username:
        return
    _count(_key(username, _address(request)))
    _count(_address_key(_address(request)))


@receiver(user_logged_in)
def clear_failures(sender, request=None, user=None, **kwargs) -> None:
    if request is None or user is None:
        return
    cache.delete(_key(user.get_username(), _address(request)))
    if (attempt := _attempt(request)) is not None:
        attempt.checked = True
        uncount(_address_key(_address(request)))


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
        if request.method != "POST" or request.path not in _guarded_paths():
            return self.get_response(request)
        username, address = request.POST.get("username", ""), _address(request)
        if not username:  # nothing to count: the form asks for one
            if address_locked_out(address):
                return self.refuse(request, message(whole_address=True))
            return self.get_response(request)
        return self.attempt(request, username, address)

    def attempt(self, request, username: str, address: str):
        """Takes the attempt's place in the counts, refused past either limit; the places of
        one whose password is never checked are given back."""
        by_address, by_username = _address_key(address), _key(username, address)
        if _count(by_address) > settings.FOGKEEPER_LOGIN_ADDRESS_FAILURES:
            return self.refuse(request, message(whole_address=True))
        if _count(by_username) > settings.FOGKEEPER_LOGIN_FAILURES:
            uncount(by_address)
            return self.refuse(request, message())
        attempt = Attempt([by_address, by_username])
        setattr(request, ATTEMPT, attempt)
        try:
            return self.get_response(request)
        finally:
            if not attempt.checked:
                for key in attempt.keys:
                    uncount(key)

    def refuse(self, request, text: str):
        if request.path != resolve_url(settings.LOGIN_URL):
            return HttpResponse(text, status=STATUS, content_type="text/plain")
        form = AuthenticationForm(request, initial={"username": request.POST.get("username")})
        form.full_clean()  # an unbound form: no errors and no cleaned data until this
        form.cleaned_data = {}
        form.add_error(None, text)
        context = {"form": form, "next": request.POST.get("next", "")}
        return render(request, "web/login.html", context, status=STATUS)

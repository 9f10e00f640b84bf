"""Sign-in throttling: after settings.FOGKEEPER_LOGIN_FAILURES failed sign-ins for one username
from one address within FOGKEEPER_LOGIN_WINDOW_SECONDS, the sign-in forms (the staff pages' and
the admin's) refuse further attempts for that username and address until the window ends,
with a message saying so (429). A successful sign-in clears the count.

Failures are counted in the cache, from Django's own `user_login_failed` signal, so whatever
authenticates with a password counts. With several server processes set FOGKEEPER_CACHE_URL
to a shared cache (Redis, or the database) so that they share the count."""

from __future__ import annotations

import contextlib
import hashlib

from django.conf import settings
from django.contrib.auth import user_logged_in, user_login_failed
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpResponse
from django.shortcuts import render, resolve_url
from django.urls import NoReverseMatch, reverse

STATUS = 429


def _key(username: str, address: str) -> str:
    digest = hashlib.sha256(f"{username.strip().lower()}|{address}".encode()).hexdigest()
    return f"fogkeeper:login-failures:{digest}"


def _address(request) -> str:
    return request.META.get("REMOTE_ADDR", "") if request is not None else ""


def failures(username: str, address: str) -> int:
    return cache.get(_key(username, address), 0)


def locked_out(username: str, address: str) -> bool:
    return failures(username, address) >= settings.FOGKEEPER_LOGIN_FAILURES


def message() -> str:
    minutes = max(1, round(settings.FOGKEEPER_LOGIN_WINDOW_SECONDS / 60))
    return (
        f"Too many failed sign-ins for this username from your address. For your account's "
        f"safety, signing in is paused: try again in {minutes} minutes."
    )


@receiver(user_login_failed)
def count_failure(sender, credentials, request=None, **kwargs) -> None:
    username = (credentials or {}).get("username")
    if request is None or not username:
        return
    key = _key(username, _address(request))
    cache.add(key, 0, timeout=settings.FOGKEEPER_LOGIN_WINDOW_SECONDS)
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=settings.FOGKEEPER_LOGIN_WINDOW_SECONDS)


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
    """Refuses a sign-in attempt (POST to a sign-in form) while its username and address are
    locked out, before the password is even checked."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "POST" and request.path in _guarded_paths():
            username = request.POST.get("username", "")
            if username and locked_out(username, _address(request)):
                return self.refuse(request)
        return self.get_response(request)

    def refuse(self, request):
        if request.path != resolve_url(settings.LOGIN_URL):
            return HttpResponse(message(), status=STATUS, content_type="text/plain")
        form = AuthenticationForm(request, initial={"username": request.POST.get("username")})
        form.full_clean()  # an unbound form: no errors and no cleaned data until this
        form.cleaned_data = {}
        form.add_error(None, message())
        context = {"form": form, "next": request.POST.get("next", "")}
        return render(request, "web/login.html", context, status=STATUS)

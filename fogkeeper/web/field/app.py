"""The field app: the inspection form that works offline (`/inspections/field/offline/`), the
day's route it downloads (`route.json`), and what makes it an installable web app: its
manifest and its service worker, served from `/inspections/field/` so that the worker's scope
covers the field pages.

The service worker (templates/web/field/sw.js) keeps the field pages and the static files they
load (SHELL_STATIC) in the browser's cache: a page is asked of the network first and answered
from the cache when there is none, a static file from the cache first. The route and the
inspections waiting to be sent are the page's own, in IndexedDB (static/web/field/). The
worker's cache is named by a digest of the files it keeps, so a new release replaces it.
On a shared phone, signing out (signout.js, on every page's sign-out form) deletes the route,
the inspections sent and the pages kept, and locks what is not sent for its inspector alone
(lock.js, with the key the sync gives each person).
The manifest and the worker are public files, like the static files: they hold no record."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_safe

from ..common import policy
from ..common.pages import agency_page, page_as_of, reads_only
from .route import route

APP_SCRIPTS = (
    "web/field/store.js",
    "web/field/form.js",
    "web/field/send.js",
    "web/field/lock.js",
    "web/field/signout.js",
    "web/field/offline.js",
    "web/field/register.js",
)
ICONS = {"192x192": "web/field/icon-192.png", "512x512": "web/field/icon-512.png"}
FONTS = "web/vendor/uswds/fonts/"
SHELL_STATIC = (
    "web/vendor/uswds/css/uswds.min.css",
    "web/vendor/uswds/js/uswds-init.min.js",
    "web/vendor/uswds/js/uswds.min.js",
    "web/vendor/uswds/img/usa-icons/close.svg",
    "web/vendor/htmx.min.js",
    "web/fogkeeper.css",
    "web/tables.js",
    "web/inspection.js",
    "web/signature.js",
    "web/field/field.css",
    *APP_SCRIPTS,
    *ICONS.values(),
    *(
        f"{FONTS}source-sans-pro/sourcesanspro-{face}-webfont.woff2"
        for face in ("regular", "bold", "italic", "light")
    ),
    *(f"{FONTS}merriweather/Latin-Merriweather-{face}.woff2" for face in ("Regular", "Bold")),
)


@lru_cache(maxsize=1)
def _release() -> str:
    """A digest of the static files the worker keeps: a new release, a new cache."""
    digest = hashlib.sha256()
    for path in SHELL_STATIC:
        with open(finders.find(path), "rb") as f:  # type: ignore[arg-type]  # each file is there
            digest.update(f.read())
    return digest.hexdigest()[:16]


@agency_page
@reads_only
def offline_page(request):
    as_of = page_as_of(request)
    context = {
        "as_of": as_of,
        "route_url": f"{reverse('web:field_route')}?as_of={as_of.isoformat()}",
        "may_inspect": policy.may_write(request.user, request.agency, "inspection"),
    }
    return render(request, "web/field/offline.html", context)


@agency_page
@reads_only
def route_json(request):
    """The day's route (route.py), as the field app stores it."""
    answer = route(agency=request.agency, as_of=page_as_of(request), user=request.user)
    response = JsonResponse(answer)
    response["Cache-Control"] = "private, no-store"
    return response


@require_safe
def manifest(request):
    answer = {
        "name": "fogkeeper field inspections",
        "short_name": "FOG field",
        "description": "The day's inspections, recorded with or without a connection.",
        "start_url": reverse("web:field_offline"),
        "scope": reverse("web:field"),
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1a4480",
        "icons": [
            {"src": static(path), "sizes": size, "type": "image/png", "purpose": "any"}
            for size, path in ICONS.items()
        ],
    }
    return JsonResponse(answer, content_type="application/manifest+json")


@require_safe
def service_worker(request):
    release = _release() if not settings.DEBUG else _release.__wrapped__()
    context = {
        "release": release,
        "pages": json.dumps([reverse("web:field_offline"), reverse("web:field")]),
        "static": json.dumps([static(path) for path in SHELL_STATIC]),
        "static_prefix": json.dumps(static("")),
    }
    response = render(request, "web/field/sw.js", context, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = reverse("web:field")
    return response

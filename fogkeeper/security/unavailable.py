"""The database down: every page and API call answers 503 with Retry-After, a JSON body for the
API and, for pages, a page of its own (no database, no base template) saying the service is
briefly unavailable, rather than a server error.

The session and the person are read lazily, so the database is first touched either in the
view (the person looked up, DRF's authentication, the API's rate in the cache), where
DatabaseUnavailableMiddleware.process_exception answers, or in a middleware (the sign-in
throttle's cache on the way in, the session saved on the way out), whose exception Django
hands to the 500 handler (fogkeeper.security.errors.server_error), which answers the same.
The middleware sits before the session middleware, so that a page it answers still passes
through the security and Content-Security-Policy middleware. (With DEBUG on, a failure in a
middleware shows Django's debug page instead.)"""

from __future__ import annotations

import logging

from django.db.utils import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.log import log_response

from .requests import request_id

RETRY_AFTER_SECONDS = 30
MESSAGE = (
    "fogkeeper is briefly unavailable: it cannot reach its records just now. "
    "Please try again in a minute."
)
logger = logging.getLogger("fogkeeper.unavailable")


def is_unavailable(exc: BaseException | None) -> bool:
    """A failure to reach the database (refused, lost, shutting down), not a failed query: a
    deadlock or a statement timeout stays a server error."""
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    sqlstate = getattr(exc.__cause__, "sqlstate", None)  # psycopg's; None: no server answer
    return sqlstate is None or sqlstate.startswith(("08", "57P"))


def is_api(request) -> bool:
    return request.path.startswith("/api/")


def response(request) -> HttpResponse:
    rid = request_id(request)
    if is_api(request):
        answer = JsonResponse({"detail": MESSAGE, "request_id": rid}, status=503)
    else:
        page = render_to_string("503.html", {"request_id": rid, "message": MESSAGE})
        answer = HttpResponse(page, status=503)
    answer.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return answer


def answer(request, exc: BaseException) -> HttpResponse:
    """The 503, logged once with the failure's traceback."""
    result = response(request)
    log_response(
        "Database unavailable: %s", request.path, response=result, request=request,
        logger=logger, exception=exc,
    )  # fmt: skip
    return result


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        return answer(request, exception) if is_unavailable(exception) else None

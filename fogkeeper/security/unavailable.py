"""The database down: every page and API call answers 503 with Retry-After, a JSON body for the
API and, for pages, a page of its own (no database, no base template) saying the service is
briefly unavailable, rather than a server error.

The session and the person are read lazily, so the database is first touched either in the
view (the person looked up, DRF's authentication, the API's rate in the cache), where
fogkeeper.security.errors.FailureAnswerMiddleware answers, or in a middleware (the sign-in
throttle's cache on the way in, the session saved on the way out), whose exception Django
hands to the 500 handler (fogkeeper.security.errors.server_error), which answers the same.
The middleware sits before the session middleware, so that a page it answers still passes
through the security and Content-Security-Policy middleware. (With DEBUG on, a failure in a
middleware shows Django's debug page instead.)"""

from __future__ import annotations

import logging

from django.db.utils import InterfaceError, OperationalError
from django.http import HttpResponse

from .requests import answered

RETRY_AFTER_SECONDS = 30
MESSAGE = (
    "fogkeeper is briefly unavailable: it cannot reach its records just now. "
    "Please try again in a minute."
)
LOGGED = "Database unavailable: %s"
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


def response(request) -> HttpResponse:
    answer = answered(request, 503, detail=MESSAGE, template="503.html", message=MESSAGE)
    answer.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return answer

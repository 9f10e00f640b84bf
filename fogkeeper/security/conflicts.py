"""Two people storing the same thing at the same moment: each service looks for a duplicate
before it stores (a code, a manifest number, a member), and the writes that must never both
happen take a lock (fogkeeper.locks). Where two writers still both find nothing and the
database's unique constraint refuses the second, the second is answered 409 with what to do
next, JSON under /api/ and a page elsewhere, rather than a server error. The refused write's
transaction was rolled back, so nothing of it was stored."""

from __future__ import annotations

import logging

from django.db import IntegrityError
from django.http import HttpResponse
from django.utils.http import url_has_allowed_host_and_scheme

from .requests import answered

UNIQUE_VIOLATION = "23505"  # PostgreSQL's SQLSTATE
MESSAGE = (
    "Someone else recorded the same thing at the same moment, so what you sent was not saved. "
    "Reload the page to see what is on record now, and send it again only if it is still "
    "needed."
)
LOGGED = "Duplicate write refused: %s"
logger = logging.getLogger("fogkeeper.conflicts")


def is_duplicate(exc: BaseException) -> bool:
    """A unique constraint's refusal (not another integrity error, such as a missing row a
    foreign key names, which stays a server error)."""
    if not isinstance(exc, IntegrityError):
        return False
    sqlstate = getattr(exc.__cause__, "sqlstate", None)
    if sqlstate is not None:
        return sqlstate == UNIQUE_VIOLATION
    return "UNIQUE constraint failed" in str(exc)  # SQLite's words


def response(request) -> HttpResponse:
    return answered(
        request, 409, detail=MESSAGE, template="409.html", message=MESSAGE, back=_back(request)
    )


def _back(request) -> str:
    """The page the form was sent from, when it is one of ours; else the front page."""
    referer = request.META.get("HTTP_REFERER", "")
    ours = url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return referer if referer and ours else "/"

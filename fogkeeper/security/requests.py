"""Every request's id, and logs that say which request, person, agency and page they are of.

RequestIdMiddleware (first in MIDDLEWARE) takes a sane incoming X-Request-ID (a proxy's) or
makes one, keeps it on the request (`request.request_id`) and in a context variable for the
request's duration, and answers it in the X-Request-ID header; the error pages show it. The
logging configuration (settings.LOGGING) writes every record to standard error as one JSON
object a line: RequestFilter adds the request's fields, JsonFormatter writes them."""

from __future__ import annotations

import json
import logging
import re
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.functional import empty

HEADER = "X-Request-ID"
# A proxy's id is kept when it is short and plain (no spaces, quotes or control characters).
SANE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")

_current: ContextVar[HttpRequest | None] = ContextVar("fogkeeper_request", default=None)


def request_id(request) -> str:
    return getattr(request, "request_id", "") or ""


def is_api(request) -> bool:
    return request.path.startswith("/api/")


def answered(request, status: int, *, detail: str, template: str, **context) -> HttpResponse:
    """A failure's answer with the request's id: JSON under /api/, else `template`, a page
    of the standalone frame (no database, no context processors)."""
    rid = request_id(request)
    if is_api(request):
        return JsonResponse({"detail": detail, "request_id": rid}, status=status)
    page = render_to_string(template, {"request_id": rid, **context})
    return HttpResponse(page, status=status)


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        incoming = request.headers.get(HEADER, "")
        request.request_id = incoming if SANE.fullmatch(incoming) else uuid.uuid4().hex
        token = _current.set(request)
        try:
            response = self.get_response(request)
        finally:
            _current.reset(token)
        response.headers[HEADER] = request.request_id
        return response


def _user(request) -> str | None:
    """The signed-in person's username, only when the request has already looked them up (a
    log line must not query the database, which may be what failed)."""
    user = request.__dict__.get("user")
    if user is None or getattr(user, "_wrapped", None) is empty:
        return None
    return user.get_username() if user.is_authenticated else None


class RequestFilter(logging.Filter):
    """Adds the current request's id, person, agency, path and method to every record, and what
    it has cost so far (queries, their milliseconds, its milliseconds: timings.py); the request
    of the record itself, for Django's request log written after the middleware."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = _current.get()
        if request is None and isinstance(getattr(record, "request", None), HttpRequest):
            request = record.request  # type: ignore[attr-defined]  # Django's request log adds it
        if request is not None:
            agency = getattr(request, "agency", None)
            record.request_id = request_id(request) or None
            record.user = _user(request)
            record.agency = getattr(agency, "code", None)
            record.path = request.path
            record.method = request.method
            spent = getattr(request, "spent", None)  # timings.RequestTimingMiddleware's
            if spent is not None:
                record.__dict__.update(spent.fields())
        return True


class JsonFormatter(logging.Formatter):
    FIELDS = ("request_id", "user", "agency", "path", "method", "queries", "db_ms", "ms")

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({name: getattr(record, name, None) for name in self.FIELDS})
        entry["status"] = getattr(record, "status_code", None)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, default=str)

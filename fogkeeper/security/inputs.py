"""Malformed requests are refused at the edge, once, with a 400 that says what was wrong (JSON
`{"detail": ...}` under /api/, a page elsewhere), before any view reads them (issue 15, item 8).

What is refused: a control character (NUL included: PostgreSQL cannot store one) in the path,
in a query parameter's name or value, or in a form field (not in an uploaded file; a form field
may hold tabs and line breaks); a percent-encoding that is not UTF-8; a path or a query longer
than any link of ours; a date (YYYY-MM-DD) in a query parameter or form field outside the
years date arithmetic is safe in (`?as_of=9999-12-01` + one day overflowed); a form that cannot
be read as one; and a body longer than FOGKEEPER_MAX_REQUEST_BYTES (413), by the length it
declares, before any of it is read (a sync once stored 278 MB of photos: issue 37, item 4).
A client that asks for JSON alone (the field app) is answered in JSON too."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.template.loader import render_to_string

from fogkeeper.security import requests

MAX_PATH = 2000  # characters of the path, percent-encoded as sent
MAX_QUERY = 4000  # characters of the query string
FIRST_YEAR, LAST_YEAR = 1900, 9998  # a date outside these years is no date of a FOG program

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_CONTROL_IN_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # tab, CR, LF allowed
_DATE = re.compile(r"\s*(\d{4,})-\d{1,2}-\d{1,2}(?:[T ].*)?\s*", re.DOTALL)


class MalformedInput(Exception):
    status = 400


class TooLarge(MalformedInput):
    status = 413


def _check_length(request) -> None:
    most = settings.FOGKEEPER_MAX_REQUEST_BYTES
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise MalformedInput("The request's Content-Length is not a number.") from None
    if length > most:
        raise TooLarge(
            f"The request is {_size(length)}; at most {_size(most)} are taken at once: send "
            "fewer or smaller files at a time."
        )


def _size(n: int) -> str:
    return f"{n / 2**20:,.1f} MB" if n >= 2**20 else f"{n / 2**10:,.0f} KB"


def _text(raw: str, what: str, *, unquote: bool = True) -> str:
    """`raw` as the WSGI server passed it (bytes as latin-1; the path already percent-decoded,
    the query not), as UTF-8."""
    try:
        data = raw.encode("latin-1")
        return (unquote_to_bytes(data) if unquote else data).decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        raise MalformedInput(f"The {what} is not valid UTF-8 text.") from None


def _check_value(name: str, value: str, control: re.Pattern, where: str) -> None:
    if control.search(value):
        raise MalformedInput(f"The {where} “{_shown(name)}” holds a control character.")
    if (day := _DATE.fullmatch(value)) and not FIRST_YEAR <= int(day[1]) <= LAST_YEAR:
        raise MalformedInput(
            f"The {where} “{_shown(name)}” is a date out of range ({_shown(value)}): give a"
            f" date between {FIRST_YEAR} and {LAST_YEAR}."
        )


def check_text(name: str, value: str) -> None:
    """Raise MalformedInput when `value`, the text at `name` inside a request's body that the
    edge reads as one form field (a JSON document's), holds what check_request refuses in a
    form field: a control character other than a tab or a line break, a date out of range,
    or what is no UTF-8 text (a lone surrogate, which a JSON escape can make)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedInput(f"The field “{_shown(name)}” is not valid UTF-8 text.") from None
    _check_value(name, value, _CONTROL_IN_TEXT, "field")


def _shown(text: str) -> str:
    text = _CONTROL.sub("�", text)
    return text if len(text) <= 40 else text[:40] + "…"


def check_request(request) -> None:
    """Raise MalformedInput saying what is wrong with the request, if anything."""
    raw_path = request.META.get("PATH_INFO", "")
    raw_query = request.META.get("QUERY_STRING", "")
    if len(raw_path) > MAX_PATH:
        raise MalformedInput(f"The address is too long (over {MAX_PATH} characters).")
    if len(raw_query) > MAX_QUERY:
        raise MalformedInput(f"The query is too long (over {MAX_QUERY} characters).")
    if _CONTROL.search(raw_path):  # the same characters whether read as latin-1 or UTF-8
        raise MalformedInput("The address holds a control character.")
    _text(raw_path, "address", unquote=False)
    for pair in filter(None, re.split(r"[&;]", raw_query)):
        name, _, value = pair.partition("=")
        name = _text(name.replace("+", " "), "query")
        if _CONTROL.search(name):
            raise MalformedInput(f"The query parameter “{_shown(name)}” holds a control character.")
        _check_value(name, _text(value.replace("+", " "), "query"), _CONTROL, "query parameter")
    _check_length(request)
    if request.method == "POST" and request.content_type in (
        "application/x-www-form-urlencoded",
        "multipart/form-data",
    ):
        for name, values in _form(request).lists():
            if _CONTROL.search(name):
                raise MalformedInput(f"The form field “{_shown(name)}” holds a control character.")
            for value in values:
                _check_value(name, value, _CONTROL_IN_TEXT, "form field")


def _form(request):
    try:
        return request.POST
    except (MultiPartParserError, UnicodeDecodeError) as e:
        raise MalformedInput(f"The form could not be read: {_shown(str(e))}") from None


def _wants_json(request) -> bool:
    accept = request.META.get("HTTP_ACCEPT", "")
    return request.path_info.startswith("/api/") or (
        "application/json" in accept and "text/html" not in accept
    )


def refusal(request, message: str, status: int = 400) -> HttpResponse:
    request_id = requests.request_id(request)
    if _wants_json(request):
        answer: dict[str, Any] = {"detail": message, "request_id": request_id}
        if not request.path_info.startswith("/api/"):  # the field app reads `messages`
            answer.update(status="refused", messages=[message])
        return JsonResponse(answer, status=status)
    context = {"message": message, "request_id": request_id}
    html = render_to_string("security/malformed.html", context)
    return HttpResponse(html, status=status)


class MalformedInputMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            check_request(request)
        except MalformedInput as e:
            return refusal(request, str(e), e.status)
        return self.get_response(request)

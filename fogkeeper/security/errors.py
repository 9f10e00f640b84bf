"""The error answers (config/urls.py's handler400..500, CSRF_FAILURE_VIEW, the API's exception
handler): each gives the request's id, for the person to quote and us to find in the logs. An
API call (/api/) gets JSON, {"detail": ..., "request_id": ...}; a page gets 400.html,
403.html or 404.html (the site's look), or 500.html, which needs neither the database nor
the context processors: it must show when they are what failed."""

from __future__ import annotations

import sys

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.log import log_response
from rest_framework.views import exception_handler

from . import conflicts, unavailable
from .requests import answered, is_api, request_id

DETAILS = {
    400: "The request could not be understood. Check the address and what was sent.",
    403: "You may not do this.",
    404: "Not found.",
    500: "Something went wrong on our side. It has been logged; please try again later.",
}


def _answer(request, status: int) -> HttpResponse:
    context = {"request_id": request_id(request)}
    if is_api(request):
        return JsonResponse({"detail": DETAILS[status], **context}, status=status)
    return render(request, f"{status}.html", context, status=status)


def bad_request(request, exception=None):
    return _answer(request, 400)


def permission_denied(request, exception=None):
    return _answer(request, 403)


def csrf_failure(request, reason=""):
    return _answer(request, 403)


def page_not_found(request, exception=None):
    return _answer(request, 404)


def server_error(request):
    """Called while the exception is handled: a database out of reach answers 503."""
    if unavailable.is_unavailable(sys.exc_info()[1]):
        return unavailable.response(request)
    return answered(request, 500, detail=DETAILS[500], template="500.html")


# A view's failure that is not ours to fix: the database out of reach (503), a write refused
# because another writer stored the same thing first (409).
FAILURES = (
    (unavailable.is_unavailable, unavailable),
    (conflicts.is_duplicate, conflicts),
)


class FailureAnswerMiddleware:
    """Answers FAILURES raised by a view; sits before the first middleware that reads the
    database (sessions), so that its answer still passes the security middleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        for matches, kind in FAILURES:
            if matches(exception):
                result = kind.response(request)
                log_response(
                    kind.LOGGED,
                    request.path,
                    response=result,
                    request=request,
                    logger=kind.logger,
                    exception=exception,
                )
                return result
        return None


def api_exception_handler(exc, context):
    """DRF's answer, with the request's id beside its "detail". Field errors ({"date": [...]})
    are left as they are, so that no one takes the id for a field: X-Request-ID has it."""
    response = exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" in response.data:
        response.data["request_id"] = request_id(context["request"])
    return response

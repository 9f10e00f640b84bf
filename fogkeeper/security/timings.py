"""What each request costs the server: its queries, their time, and its whole time (issue 41:
a hundred staff at once need pages whose cost is seen, not guessed).

RequestTimingMiddleware (second in MIDDLEWARE, inside the request's id) counts every query of
the request through the connection's execute_wrapper, which costs a counter and a clock read a
query, where DEBUG's query log would keep every statement's text. The figures are kept on the
request (`request.spent`): each log line written during the request carries them
(requests.RequestFilter), so a failure's line says what the request had cost when it failed.
With FOGKEEPER_REQUEST_TIMINGS on, the response also says them in a Server-Timing header,
which a browser's developer tools show beside the request; off by default, since it tells
anyone asking how long the database took.

A streamed response (a download made as it is sent) is measured up to its first byte: what
its body reads afterwards falls outside the request's figures."""

from __future__ import annotations

from contextlib import ExitStack
from time import perf_counter

from django.conf import settings
from django.db import connections

HEADER = "Server-Timing"


class Spent:
    """The queries run and the time taken since it was made; an execute_wrapper of Django's
    connections (each query passes through __call__)."""

    def __init__(self) -> None:
        self.started = perf_counter()
        self.finished: float | None = None
        self.queries = 0
        self.db_seconds = 0.0

    def __call__(self, execute, sql, params, many, context):
        start = perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.queries += 1
            self.db_seconds += perf_counter() - start

    def finish(self) -> None:
        self.finished = perf_counter()

    @property
    def ms(self) -> float:
        """The whole time in milliseconds: to `finish`, or so far."""
        return ((self.finished or perf_counter()) - self.started) * 1000

    @property
    def db_ms(self) -> float:
        return self.db_seconds * 1000

    def header(self) -> str:
        """The Server-Timing value: the database's share, then the whole request's."""
        return f'db;desc="{self.queries} queries";dur={self.db_ms:.1f}, app;dur={self.ms:.1f}'

    def fields(self) -> dict[str, float | int]:
        """The figures as a log line gives them."""
        return {"queries": self.queries, "db_ms": round(self.db_ms, 1), "ms": round(self.ms, 1)}


def counting(spent: Spent) -> ExitStack:
    """Every configured database's queries counted into `spent` (in this thread) until the
    stack closes."""
    stack = ExitStack()
    for alias in connections:
        stack.enter_context(connections[alias].execute_wrapper(spent))
    return stack


class RequestTimingMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.spent = spent = Spent()
        with counting(spent):
            response = self.get_response(request)
        spent.finish()
        if settings.FOGKEEPER_REQUEST_TIMINGS:
            response.headers[HEADER] = spent.header()
        return response

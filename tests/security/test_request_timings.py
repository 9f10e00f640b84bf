"""Each request's queries and time: in a Server-Timing header when FOGKEEPER_REQUEST_TIMINGS
is on, never when it is off, and in the log line of a request that failed."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from tests.pages import measured
from tests.web.people import make_user, two_agencies

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.security.urls")]

TIMING = re.compile(r'db;desc="(\d+) queries";dur=([\d.]+), app;dur=([\d.]+)')


@pytest.fixture
def alice_client():
    client = Client(raise_request_exception=False)
    client.force_login(make_user("alice", two_agencies()[0], role="manager"))
    return client


def test_it_says_the_pages_queries_and_time_in_a_header_when_timings_are_on(alice_client):
    with override_settings(FOGKEEPER_REQUEST_TIMINGS=True), CaptureQueriesContext(connection) as q:
        response = alice_client.get("/dashboard/")
    assert response.status_code == 200
    queries, db_ms, app_ms = TIMING.fullmatch(response["Server-Timing"]).groups()
    assert int(queries) == len(q.captured_queries) > 5
    assert 0 < float(db_ms) <= float(app_ms)


def test_it_gives_no_timing_header_when_timings_are_off(alice_client):
    with override_settings(FOGKEEPER_REQUEST_TIMINGS=False):
        response = alice_client.get("/dashboard/")
    assert response.status_code == 200
    assert "Server-Timing" not in response


def test_it_counts_no_query_for_a_page_that_reads_nothing():
    with override_settings(FOGKEEPER_REQUEST_TIMINGS=True):
        response = Client().get("/accounts/login/")
    assert TIMING.fullmatch(response["Server-Timing"]).group(1) == "0"


def test_it_logs_what_a_failed_request_had_cost(alice_client, log_lines):
    response = alice_client.get("/fail/404/")
    assert response.status_code == 404
    (line,) = [entry for entry in log_lines() if entry["logger"] == "django.request"]
    assert line["queries"] >= 2  # the session and the person, looked up before it failed
    assert 0 <= line["db_ms"] <= line["ms"]


def test_the_test_helper_counts_what_the_middleware_counts(alice_client):
    with override_settings(FOGKEEPER_REQUEST_TIMINGS=True):
        response, queries, ms = measured(alice_client, "/dashboard/")
    assert TIMING.fullmatch(response["Server-Timing"]).group(1) == str(queries)
    assert ms > 0

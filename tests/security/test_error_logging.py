"""Errors are logged to standard error as one JSON object a line (with the request's id, the
person, the path and the traceback), and every error answer shows the request's id."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.web.people import make_user, two_agencies

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.security.urls")]


@pytest.fixture
def alice_client():
    client = Client(raise_request_exception=False)
    client.force_login(make_user("alice", two_agencies()[0]))
    return client


def test_it_logs_a_server_error_as_one_json_line_with_the_traceback(alice_client, log_lines):
    response = alice_client.get("/fail/500/?x=1", HTTP_X_REQUEST_ID="req-7f3a")
    assert response.status_code == 500
    (line,) = [entry for entry in log_lines() if entry["level"] == "ERROR"]
    assert line["request_id"] == "req-7f3a" == response["X-Request-ID"]
    assert (line["user"], line["path"], line["method"], line["status"]) == (
        "alice",
        "/fail/500/",
        "GET",
        500,
    )
    assert line["logger"] == "django.request"
    assert "RuntimeError: the view broke" in line["exception"]
    assert "Traceback (most recent call last)" in line["exception"]


def test_it_shows_the_request_id_of_the_header_on_the_500_page(alice_client):
    response = alice_client.get("/fail/500/")
    assert response.status_code == 500
    assert len(response["X-Request-ID"]) == 32
    page = response.content.decode()
    assert f"quote this reference: <code>{response['X-Request-ID']}</code>" in page
    assert "Something went wrong on our side" in page


@pytest.mark.parametrize("status", [400, 403, 404])
def test_it_shows_the_request_id_on_every_error_page(alice_client, status):
    response = alice_client.get(f"/fail/{status}/")
    assert response.status_code == status
    assert f"<code>{response['X-Request-ID']}</code>" in response.content.decode()


def test_it_shows_the_request_id_when_the_form_has_expired(alice_client):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "alice", "password": "x"})
    assert response.status_code == 403
    assert f"<code>{response['X-Request-ID']}</code>" in response.content.decode()


@pytest.mark.parametrize("status", [400, 403, 404, 500])
def test_it_answers_json_with_the_request_id_under_the_api(alice_client, status):
    response = alice_client.get(f"/api/v1/fail/{status}/")
    assert response.status_code == status
    assert response.json()["request_id"] == response["X-Request-ID"]
    assert response.json()["detail"]


def test_it_gives_the_request_id_in_the_apis_own_errors():
    response = Client().get("/api/v1/permits/", HTTP_X_REQUEST_ID="abc-123")
    assert response.status_code == 401
    assert response.json()["request_id"] == "abc-123" == response["X-Request-ID"]


@pytest.mark.parametrize("given", ["", "has space", "x" * 129, 'quote"d', "ünicode", "-lead"])
def test_it_makes_its_own_id_for_an_incoming_one_that_is_not_plain(given):
    response = Client().get("/accounts/login/", HTTP_X_REQUEST_ID=given)
    assert response["X-Request-ID"] != given
    assert len(response["X-Request-ID"]) == 32


def test_it_leaves_field_errors_as_they_are_with_the_id_in_the_header(alice_client):
    response = alice_client.get("/api/v1/services/?date_from=someday")
    assert response.status_code == 400
    assert "request_id" not in response.json()
    assert len(response["X-Request-ID"]) == 32

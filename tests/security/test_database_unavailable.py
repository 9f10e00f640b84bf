"""The database out of reach: pages and API calls answer 503 with Retry-After (JSON under /api/,
a page of its own otherwise), whether the connection is refused as the request begins or lost
before the view or a middleware reads. Real connections: the default database's port closed,
or the server ending the connection (pg_terminate_backend)."""

from __future__ import annotations

import socket

import psycopg
import pytest
from django.db import connection
from django.test import Client

from tests.web.people import PASSWORD, make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)
UNAVAILABLE = "The service is briefly unavailable"


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def alice_client():
    client = Client(raise_request_exception=False)
    client.force_login(make_user("alice", two_agencies()[0]))
    return client


@pytest.fixture
def database_refused():
    """The default connection now points at a port nothing listens on."""
    port = connection.settings_dict["PORT"]
    connection.close()
    connection.settings_dict["PORT"] = closed_port()
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["PORT"] = port


@pytest.fixture
def connection_lost():
    """Returns a function that has the server end the default connection (it stays open on
    our side, as after a database restart, until it is next used)."""

    def lose() -> None:
        connection.ensure_connection()
        pid = connection.connection.info.backend_pid
        s = connection.settings_dict
        with psycopg.connect(
            host=s["HOST"], port=s["PORT"], user=s["USER"], dbname=s["NAME"], autocommit=True
        ) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", [pid])

    yield lose
    connection.close()


def assert_unavailable_page(response):
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    page = response.content.decode()
    assert UNAVAILABLE in page and "try again in a minute" in page
    assert f"<code>{response['X-Request-ID']}</code>" in page


def test_it_answers_a_page_503_when_the_database_refuses(alice_client, database_refused):
    assert_unavailable_page(alice_client.get("/establishments/"))


def test_it_answers_the_sign_in_and_admin_503_when_the_database_refuses(
    alice_client, database_refused
):
    client = Client(raise_request_exception=False)
    data = {"username": "alice", "password": PASSWORD}
    assert_unavailable_page(client.post("/accounts/login/", data))
    assert_unavailable_page(alice_client.get("/admin/"))


def test_it_answers_the_api_503_in_json_when_the_database_refuses(database_refused):
    client = Client(raise_request_exception=False)
    response = client.get("/api/v1/permits/", HTTP_AUTHORIZATION="Token 0123456789abcdef")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    body = response.json()
    assert body["request_id"] == response["X-Request-ID"]
    assert "try again in a minute" in body["detail"]


def test_it_answers_503_when_the_connection_is_lost_before_the_view_reads(
    alice_client, connection_lost
):
    assert alice_client.get("/establishments/").status_code == 200
    connection_lost()
    assert_unavailable_page(alice_client.get("/establishments/"))


def test_it_answers_503_when_the_connection_is_lost_before_a_middleware_reads(
    alice_client, connection_lost
):
    make_user("bob")
    connection_lost()  # the sign-in throttle reads the cache, in the database, before the view
    data = {"username": "bob", "password": PASSWORD}
    assert_unavailable_page(Client(raise_request_exception=False).post("/accounts/login/", data))


def test_it_logs_the_lost_connection_once_with_its_traceback(
    alice_client, connection_lost, log_lines
):
    connection_lost()
    response = alice_client.get("/establishments/")
    (line,) = [entry for entry in log_lines() if entry["level"] == "ERROR"]
    assert (line["status"], line["path"], line["request_id"]) == (
        503,
        "/establishments/",
        response["X-Request-ID"],
    )
    assert "OperationalError" in line["exception"]

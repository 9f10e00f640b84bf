"""Clients that send their request slowly (slowloris) do not stop the server answering
everyone else (issue 37, item 6: four idle connections sending a header line every 5 s
stopped every answer for 45 s, and got both sync workers killed). gunicorn runs with its
production settings (fogkeeper.config.gunicorn) on 127.0.0.1; a few sockets, bounded in time."""

from __future__ import annotations

import socket
import time

import pytest
import requests

from tests.security.servers import Server, database_url

SLOW = 8  # more than the old two sync workers, and than a worker's threads
ANSWER = 2.0  # seconds a normal request may take meanwhile
HEADERS = 3  # seconds a request's headers may take (10 unless set)


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        url = database_url()
    settings = {"DATABASE_URL": url, "FOGKEEPER_DB_CONN_MAX_AGE": "0"}
    server = Server(workers=2, FOGKEEPER_HEADERS_SECONDS=str(HEADERS), **settings)
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


def slow_client(port: int) -> socket.socket:
    """A connection that has sent the start of a request and one header line."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    return sock


def answers(server: Server) -> float:
    started = time.monotonic()
    response = requests.get(f"{server.url}/accounts/login/", timeout=ANSWER)
    assert response.status_code == 200
    return time.monotonic() - started


def test_slow_clients_do_not_hold_the_server_and_are_let_go(server):
    slow = [slow_client(server.port) for _ in range(SLOW)]
    try:
        assert answers(server) < ANSWER
        for sock in slow:
            sock.sendall(b"X-Slow: 1\r\n")  # still not done
        assert answers(server) < ANSWER
        for sock in slow:  # the server closes them once their headers are late
            sock.settimeout(HEADERS + 5)
            assert sock.recv(1024) == b""
    finally:
        for sock in slow:
            sock.close()

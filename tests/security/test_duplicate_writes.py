"""A write the database's unique constraint refuses, because another writer stored the same
thing a moment before, is answered 409 with what to do next (a page, JSON under /api/), not a
server error; the staff registering one hauler eight times at once get one hauler."""

from __future__ import annotations

import pytest
from django.test import Client

from fogkeeper.registry.models import Hauler
from tests.races import race, statuses
from tests.web.people import make_user, two_agencies


@pytest.fixture
def alice_client(db):
    client = Client(raise_request_exception=False)
    client.force_login(make_user("alice", two_agencies()[0]))
    return client


@pytest.mark.urls("tests.security.urls")
def test_a_page_answers_409_saying_nothing_was_saved_and_the_way_back(alice_client):
    response = alice_client.get(
        "/fail/409/", HTTP_REFERER="http://testserver/registry/haulers/new/"
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert "Not saved: someone else recorded the same thing" in page
    assert "what you sent was not saved. Reload the page" in page
    assert '<a href="http://testserver/registry/haulers/new/">Back to the page' in page
    assert f"<code>{response['X-Request-ID']}</code>" in page


@pytest.mark.urls("tests.security.urls")
def test_the_way_back_never_leads_to_another_site(alice_client):
    response = alice_client.get("/fail/409/", HTTP_REFERER="https://evil.example/phish")
    assert '<a href="/">Back to the page' in response.content.decode()


@pytest.mark.urls("tests.security.urls")
def test_the_api_answers_409_in_json(alice_client):
    response = alice_client.get("/api/v1/fail/409/")
    assert response.status_code == 409 and response["Content-Type"] == "application/json"
    body = response.json()
    assert "not saved" in body["detail"] and body["request_id"] == response["X-Request-ID"]


@pytest.mark.urls("tests.security.urls")
def test_another_integrity_error_stays_a_server_error(alice_client):
    assert alice_client.get("/fail/423/").status_code == 500


@pytest.mark.django_db(transaction=True)
def test_one_hauler_registered_eight_times_at_once_is_stored_once_and_every_post_answered():
    sc, _ = two_agencies()
    managers = [make_user(f"mgr{i}", sc, role="manager") for i in range(8)]
    clients = [Client(raise_request_exception=False) for _ in managers]
    for client, manager in zip(clients, managers, strict=True):
        client.force_login(manager)
    form = {
        "code": "H-77",
        "name": "Racing Pumpers",
        "licence_number": "L-77",
        "licence_expires_on": "2030-01-01",
        "licensed": "on",
    }
    answers = race(8, lambda i: clients[i].post("/registry/haulers/new/", form))
    found = statuses(answers)
    assert found.count("302") == 1 and set(found) <= {"302", "400", "409"}, " ".join(found)
    assert Hauler.objects.filter(agency=sc, code="H-77").count() == 1

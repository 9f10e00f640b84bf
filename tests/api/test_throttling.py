"""The API answers a person (or an address, anonymously) so many requests, then 429."""

from __future__ import annotations

import pytest

from tests.api.conftest import api

pytestmark = pytest.mark.django_db


def test_it_answers_429_past_the_persons_rate(people, settings):
    settings.FOGKEEPER_API_RATES = {"user": "3/minute", "anon": None}
    client = api(people["manager"])
    assert [client.get("/api/v1/permits/").status_code for _ in range(4)] == [200, 200, 200, 429]
    refused = client.get("/api/v1/permits/")
    assert int(refused["Retry-After"]) > 0
    assert refused.json()["detail"].startswith("Request was throttled.")


def test_it_counts_each_person_apart(people, settings):
    settings.FOGKEEPER_API_RATES = {"user": "1/minute", "anon": None}
    assert api(people["manager"]).get("/api/v1/permits/").status_code == 200
    assert api(people["auditor"]).get("/api/v1/permits/").status_code == 200
    assert api(people["manager"]).get("/api/v1/permits/").status_code == 429


def test_it_throttles_anonymous_calls_by_address(world, settings):
    settings.FOGKEEPER_API_RATES = {"user": None, "anon": "2/minute"}
    statuses = [api().get("/api/v1/schema/").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]

"""A person's API token: from `manage.py api_token` or POST /api/v1/token/."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from fogkeeper.audit.models import AuditEvent
from tests.api.conftest import api

pytestmark = pytest.mark.django_db


def with_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def command(*args) -> str:
    out = StringIO()
    call_command("api_token", *args, stdout=out)
    return out.getvalue().strip()


def test_it_issues_a_token_that_works_from_the_command(people):
    key = command("audrey")
    assert with_token(key).get("/api/v1/establishments/").status_code == 200
    assert AuditEvent.objects.filter(action="api_token.issue", object_id=str(people["auditor"].pk))


def test_it_prints_the_same_token_again_until_rotated(people):
    first = command("audrey")
    assert command("audrey") == first
    second = command("audrey", "--rotate")
    assert second != first
    assert with_token(first).get("/api/v1/establishments/").status_code == 401
    assert with_token(second).get("/api/v1/establishments/").status_code == 200


def test_it_refuses_an_unknown_username(world):
    with pytest.raises(CommandError, match="no such user: nobody"):
        command("nobody")


def test_it_rotates_the_callers_token_through_the_api(people):
    old = Token.objects.create(user=people["hauler"]).key
    response = with_token(old).post("/api/v1/token/")
    assert response.status_code == 201
    new = response.json()["token"]
    assert with_token(old).get("/api/v1/establishments/").status_code == 401
    assert with_token(new).get("/api/v1/establishments/").status_code == 200


def test_it_audits_a_rotation_without_the_token_itself(people):
    response = api(people["hauler"]).post("/api/v1/token/")
    event = AuditEvent.objects.get(action="api_token.rotate")
    assert event.actor == people["hauler"]
    assert response.json()["token"] not in str(event.after)


def test_it_says_whether_the_caller_has_a_token(people):
    response = api(people["owner"]).get("/api/v1/token/")
    assert response.json()["username"] == "oscar"
    assert response.json()["has_token"] is True

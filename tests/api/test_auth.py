"""Who may call the API: a token (or a signed-in session); anonymous only the schema."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import api
from tests.web.people import PASSWORD

pytestmark = pytest.mark.django_db

PATHS = [
    "establishments",
    "devices",
    "permits",
    "services",
    "trainings",
    "inspections",
    "incidents",
    "findings",
]


@pytest.mark.parametrize("path", PATHS)
def test_it_answers_401_to_anonymous_calls(world, path):
    response = api().get(f"/api/v1/{path}/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_it_answers_401_to_a_wrong_token(world):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef01234567")
    assert client.get("/api/v1/establishments/").status_code == 401


def test_it_answers_401_to_an_anonymous_submission(world):
    assert api().post("/api/v1/services/", {}, format="json").status_code == 401


def test_it_accepts_a_token(people):
    response = api(people["auditor"]).get("/api/v1/establishments/")
    assert response.status_code == 200
    assert response.json()["count"] == 2


def test_it_accepts_a_signed_in_session_for_the_browsable_api(client, people):
    people["auditor"].set_password(PASSWORD)
    people["auditor"].save()
    client.login(username="audrey", password=PASSWORD)
    response = client.get("/api/v1/establishments/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert b"Pier Taqueria" in response.content


def test_it_lets_anyone_read_the_schema(world):
    response = api().get("/api/v1/schema/")
    assert response.status_code == 200
    assert b"openapi: 3.0.3" in response.content
    assert b"/api/v1/findings/{id}/" in response.content


def test_it_lets_anyone_read_the_docs_page_made_of_local_files_only(world):
    response = api().get("/api/v1/docs/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "<style" not in html and "<script>" not in html
    assert "http://" not in html and "https://" not in html


def test_it_serves_the_docs_page_start_up_script_as_a_file(world):
    response = api().get("/api/v1/docs/?script=")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert b"/api/v1/schema/" in response.content


def test_it_answers_unknown_api_paths_with_json(people):
    response = api(people["manager"]).get("/api/v1/findings/abc/")
    assert response.status_code == 404
    assert response.json()["detail"] == "Not found."

"""Inputs the schema does not allow are refused, never read loosely or turned into errors of
the server: what schemathesis relies on (test_schema_conformance.py)."""

from __future__ import annotations

import pytest

from tests.api.conftest import TODAY, api

pytestmark = pytest.mark.django_db


def test_it_refuses_a_parameter_given_without_a_value(people):
    response = api(people["manager"]).get("/api/v1/services/?date_to=&establishment=")
    assert response.status_code == 400
    assert response.json() == {
        "date_to": ["Give a value, or leave the parameter out."],
        "establishment": ["Give a value, or leave the parameter out."],
    }


def test_it_answers_404_for_a_page_without_a_number(people):
    assert api(people["manager"]).get("/api/v1/services/?page=").status_code == 404


def test_it_refuses_a_nul_character_in_a_filter(people):
    response = api(people["manager"]).get("/api/v1/findings/?rule=gcd%00")
    assert response.status_code == 400
    assert response.json()["detail"] == "The query parameter “rule” holds a control character."


def test_it_refuses_a_nul_character_in_a_submission(people, world):
    body = {"device": world.device(world.pier).pk, "manifest_number": "C\x00", "date": TODAY}
    response = api(people["hauler"]).post("/api/v1/services/", body, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["manifest_number"]


def test_it_refuses_a_manifest_number_with_spaces_around_it(people, world):
    body = {"device": world.device(world.pier).pk, "manifest_number": " C-3", "date": TODAY}
    response = api(people["hauler"]).post("/api/v1/services/", body, format="json")
    assert response.json() == {"manifest_number": ["No spaces at either end."]}


def test_it_answers_404_when_the_query_names_an_agency_not_among_yours(people):
    client = api(people["manager"], agency="san-clemente")
    assert client.get("/api/v1/permits/?agency=san-clemente").status_code == 200
    assert client.get("/api/v1/permits/?agency=town-10-02").status_code == 404


def test_it_answers_404_for_an_empty_agency_code(people):
    assert api(people["manager"]).get("/api/v1/permits/?agency=").status_code == 404


def test_it_answers_json_400_for_a_path_with_a_line_break(client):
    response = client.get("/api/v1/trainings/%C3%B6%0A/")
    assert response.status_code == 400
    assert response.json()["detail"] == "The address holds a control character."


def test_it_refuses_a_body_nested_too_deep_in_words(people):
    body = '{"a": ' * 100_000 + "1" + "}" * 100_000
    client = api(people["hauler"])
    client.raise_request_exception = False
    response = client.post("/api/v1/services/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["detail"] == "The JSON body is nested deeper than 100 levels."

"""Malformed input is a 400 that says what was wrong (a page, or JSON under /api/), never a
server error: the probe's own examples (issue 15, item 8)."""

from __future__ import annotations

import pytest

from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(client):
    sc, _ = two_agencies()
    make_establishment(sc, code="FSE-1")
    client.force_login(make_user("alice", sc, role="manager"))
    return client


def refused(response, words: str) -> bool:
    return response.status_code == 400 and words in response.content.decode()


def test_it_refuses_a_nul_character_in_the_search(manager):
    assert refused(manager.get("/establishments/?q=%00"), "“q” holds a control character")


def test_it_refuses_a_nul_character_in_the_path(manager):
    assert refused(manager.get("/cases/%00/EC-1/"), "The address holds a control character")


def test_it_refuses_a_nul_character_in_a_form_field(manager):
    response = manager.post("/establishments/FSE-1/record/service/", {"manifest_number": "M\x00"})
    assert refused(response, "“manifest_number” holds a control character")


def test_it_refuses_an_as_of_after_year_9998(manager):
    response = manager.get("/establishments/?as_of=9999-12-01")
    assert refused(response, "“as_of” is a date out of range (9999-12-01)")


@pytest.mark.parametrize("path", ["/dashboard/", "/cases/", "/calendar/", "/establishments/FSE-1/"])
def test_it_refuses_an_as_of_of_year_zero_on_every_page(manager, path):
    assert refused(manager.get(f"{path}?as_of=0000-01-01"), "“as_of” is a date out of range")


def test_it_refuses_a_query_that_is_not_utf8(manager):
    assert refused(manager.get("/establishments/?q=%ff%fe"), "The query is not valid UTF-8")


def test_it_refuses_an_over_long_address(manager):
    assert refused(manager.get("/establishments/" + "x" * 2100 + "/"), "The address is too long")


def test_it_refuses_an_over_long_query(manager):
    assert refused(manager.get("/establishments/?q=" + "x" * 4100), "The query is too long")


def test_it_answers_json_under_the_api(client):
    response = client.get("/api/v1/establishments/?q=%00")
    assert response.status_code == 400
    assert response.json()["detail"] == "The query parameter “q” holds a control character."
    assert response.json()["request_id"] == response.headers["X-Request-ID"]


def test_it_answers_json_for_an_over_long_api_address(client):
    response = client.get("/api/v1/establishments/" + "9" * 2100 + "/")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("The address is too long")


def test_it_lets_line_breaks_through_in_a_form_field(manager):
    response = manager.post("/establishments/FSE-1/record/service/", {"notes": "a\r\nb\tc"})
    assert response.status_code != 400 or b"control character" not in response.content

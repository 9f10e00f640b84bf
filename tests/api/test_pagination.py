from __future__ import annotations

import pytest

from tests.api.conftest import api
from tests.records import make_establishment

pytestmark = pytest.mark.django_db

URL = "/api/v1/establishments/"


@pytest.fixture
def many(world):
    for n in range(3, 8):
        make_establishment(world.sc, code=f"FSE-{n}", operator=f"Operator {n}")


def test_it_pages_by_the_size_asked(people, many):
    body = api(people["manager"]).get(f"{URL}?page_size=3&page=2").json()
    assert body["count"] == 7
    assert [r["code"] for r in body["results"]] == ["FSE-4", "FSE-5", "FSE-6"]
    assert body["previous"].endswith("/api/v1/establishments/?page_size=3")
    assert body["next"].endswith("/api/v1/establishments/?page=3&page_size=3")


def test_it_answers_404_past_the_last_page(people, many):
    assert api(people["manager"]).get(f"{URL}?page=9").status_code == 404


@pytest.mark.parametrize("size", ["0", "201", "many"])
def test_it_refuses_a_page_size_out_of_range(people, size):
    response = api(people["manager"]).get(f"{URL}?page_size={size}")
    assert response.status_code == 400
    assert response.json() == {"page_size": ["A whole number from 1 to 200."]}


def test_it_takes_200_a_page_at_most(people):
    assert api(people["manager"]).get(f"{URL}?page_size=200").status_code == 200

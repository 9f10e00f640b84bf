from __future__ import annotations

import pytest

from tests.api.conftest import api, codes

pytestmark = pytest.mark.django_db

URL = "/api/v1/incidents/"


def test_it_shows_staff_a_spill_that_matched_no_establishment(people):
    rows = api(people["auditor"]).get(f"{URL}?date_from=2025-12-01").json()["results"]
    assert [(r["code"], r["establishment"]) for r in rows] == [("SPILL-1", None)]


def test_it_filters_attributed_incidents(people, world):
    world.pier.incidents.update(attributed=True)
    assert codes(api(people["manager"]).get(f"{URL}?attributed=true"), "code") == ["FSE-1-O1"]

"""What each role of San Clemente sees through each list of the API (ACCESS.md): staff see the
whole agency, an operator its establishments, a hauler its customers and only its own
pump-outs, an owner the establishments on its parcels; a role that may not read a kind of
record is refused (403). Nobody sees the Town's records."""

from __future__ import annotations

import pytest

from tests.api.conftest import api

pytestmark = pytest.mark.django_db

STAFF = ["manager", "inspector", "clerk", "auditor"]
BOTH, PIER = ["FSE-1", "FSE-2"], ["FSE-1"]

# (path, field listed, {role: what it lists, or the status code of the refusal})
SEEN = [
    ("establishments", "code", {"staff": BOTH, "operator": PIER, "hauler": PIER, "owner": PIER}),
    ("devices", "establishment", {"staff": BOTH, "operator": PIER, "hauler": PIER, "owner": 403}),
    ("permits", "establishment", {"staff": BOTH, "operator": PIER, "hauler": 403, "owner": PIER}),
    ("trainings", "establishment", {"staff": BOTH, "operator": PIER, "hauler": 403, "owner": 403}),
    (
        "inspections",
        "establishment",
        {"staff": BOTH, "operator": PIER, "hauler": 403, "owner": 403},
    ),
    (
        "services",
        "manifest_number",
        {
            "staff": ["C-1", "R-1", "R-2"],
            "operator": ["C-1", "R-1"],
            "hauler": ["C-1"],
            "owner": 403,
        },
    ),
    (
        "incidents",
        "code",
        {
            "staff": ["FSE-1-O1", "FSE-2-O1", "SPILL-1"],
            "operator": 403,
            "hauler": 403,
            "owner": 403,
        },
    ),
]
CASES = [
    (path, field, role, expected[("staff" if role in STAFF else role)])
    for path, field, expected in SEEN
    for role in [*STAFF, "operator", "hauler", "owner"]
]


def listed(response, field):
    if response.status_code != 200:
        return response.status_code
    return sorted(row[field] for row in response.json()["results"])


@pytest.mark.parametrize(("path", "field", "role", "expected"), CASES)
def test_it_lists_what_the_role_may_read_of_what_it_reaches(people, path, field, role, expected):
    response = api(people[role]).get(f"/api/v1/{path}/")
    assert listed(response, field) == expected


@pytest.mark.parametrize("role", [*STAFF, "operator", "owner"])
def test_it_lists_the_findings_of_the_establishments_reached(people, role):
    response = api(people[role]).get("/api/v1/findings/")
    seen = {row["establishment"] for row in response.json()["results"]}
    assert "FSE-1" in seen
    assert seen <= ({"FSE-1", "FSE-2"} if role in STAFF else {"FSE-1"})


def test_it_refuses_findings_to_a_hauler(people):
    response = api(people["hauler"]).get("/api/v1/findings/")
    assert response.status_code == 403
    assert response.json()["detail"] == "Your role at this agency may not do this."


@pytest.mark.parametrize(
    "path",
    [
        "establishments",
        "devices",
        "permits",
        "services",
        "trainings",
        "inspections",
        "incidents",
        "findings",
    ],
)
def test_it_shows_the_town_only_its_own_records(people, path):
    response = api(people["town"]).get(f"/api/v1/{path}/")
    body = response.json()
    assert body["count"] >= 1
    assert not any(row.get("establishment") in ("FSE-1", "FSE-2") for row in body["results"])
    assert not any(row.get("code") in ("FSE-1", "FSE-2", "SPILL-1") for row in body["results"])


@pytest.mark.parametrize("role", ["operator", "hauler", "owner"])
@pytest.mark.parametrize("path", ["establishments", "devices", "permits", "services", "findings"])
def test_it_answers_404_to_an_outside_role_acting_for_an_agency_not_its_own(people, role, path):
    response = api(people[role], agency="town").get(f"/api/v1/{path}/")
    assert response.status_code == 404
    assert b"FSE-9" not in response.content


@pytest.mark.parametrize("role", ["operator", "hauler", "owner"])
def test_it_answers_404_for_the_town_establishment_by_id(people, world, role):
    response = api(people[role]).get(f"/api/v1/establishments/{world.diner.pk}/")
    assert response.status_code == 404


def test_it_says_in_the_schema_which_fields_some_roles_are_not_shown():
    components = api().get("/api/v1/schema/?format=json").json()["components"]["schemas"]
    assert "notes" not in components["Inspection"]["required"]
    assert "status" not in components["Establishment"].get("required", [])
    assert "note" not in components["Answer"].get("required", [])
    assert "citation" not in components["ScheduleItem"].get("required", [])
    assert {"id", "code"} <= set(components["Establishment"]["required"])
    assert "code" in components["Incident"]["required"]  # staff only: as it was

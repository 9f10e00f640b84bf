from __future__ import annotations

import pytest

from tests.api.conftest import api, codes

pytestmark = pytest.mark.django_db

URL = "/api/v1/establishments/"


def test_it_shows_an_establishment_with_its_status_and_schedule(people, world):
    body = api(people["owner"]).get(f"{URL}{world.pier.pk}/").json()
    assert (body["code"], body["name"]) == ("FSE-1", "Pier Taqueria")
    assert body["status"]["status"] == "non_compliant"
    assert body["status"]["as_of"] == "2026-03-02"
    assert {"obligation", "subject", "due", "citation"} == set(body["schedule"][0])


def test_it_shows_a_hauler_its_customers_pump_outs_due_and_no_status(people, world):
    body = api(people["hauler"]).get(f"{URL}{world.pier.pk}/").json()
    assert "status" not in body
    assert [(i["obligation"], i["subject"]) for i in body["schedule"]] == [("gcd.service", "GI-1")]
    assert set(body["schedule"][0]) == {"obligation", "subject", "due"}


def test_it_keeps_the_schedules_trainings_permit_and_inspections_from_a_hauler(people, world):
    staff = api(people["manager"]).get(f"{URL}{world.pier.pk}/").json()["schedule"]
    body = api(people["hauler"]).get(f"{URL}{world.pier.pk}/").json()
    assert {"training.refresher", "inspection.annual"} <= {i["obligation"] for i in staff}
    assert not {i["obligation"] for i in body["schedule"]} - {"gcd.service"}


def test_it_answers_404_for_an_establishment_the_operator_does_not_run(people, world):
    assert api(people["operator"]).get(f"{URL}{world.grill.pk}/").status_code == 404


def test_it_filters_by_code(people):
    assert codes(api(people["manager"]).get(f"{URL}?code=FSE-2"), "code") == ["FSE-2"]


def test_it_filters_by_status(people):
    response = api(people["manager"]).get(f"{URL}?status=non_compliant")
    assert "FSE-1" in codes(response, "code")
    assert all(row["status"]["status"] == "non_compliant" for row in response.json()["results"])


def test_it_filters_open_and_closed_establishments(people, world):
    world.grill.closed_on = world.grill.opened_on.replace(year=2025)
    world.grill.save()
    assert codes(api(people["manager"]).get(f"{URL}?open=true"), "code") == ["FSE-1"]
    assert codes(api(people["manager"]).get(f"{URL}?open=false"), "code") == ["FSE-2"]


def test_it_refuses_a_status_filter_to_a_role_that_may_not_read_status(people):
    response = api(people["hauler"]).get(f"{URL}?status=non_compliant")
    assert response.status_code == 403
    assert "status" in response.json()["detail"]


def test_it_refuses_an_outside_role_a_filter_by_a_field_it_is_not_shown(people):
    assert api(people["operator"]).get(f"{URL}?category=restaurant").status_code == 403
    assert api(people["manager"]).get(f"{URL}?category=restaurant").status_code != 403


def test_it_refuses_a_filter_value_it_does_not_know(people):
    response = api(people["manager"]).get(f"{URL}?open=maybe&status=fine")
    assert response.status_code == 400
    assert set(response.json()) == {"open", "status"}


def test_a_refused_filter_value_names_the_values_accepted(people):
    response = api(people["manager"]).get(f"{URL}?status=fine")
    (text,) = response.json()["status"]
    assert text.startswith('"fine" is not a value of status: send one of "')
    assert '"non_compliant"' in text and "Select a valid choice" not in text

from __future__ import annotations

import pytest

from fogkeeper.compliance.models import Finding
from tests.api.conftest import api

pytestmark = pytest.mark.django_db

URL = "/api/v1/findings/"


def test_it_shows_a_finding_with_its_citation(people, world):
    finding = Finding.objects.get(establishment=world.pier, rule="gcd.service_overdue", open=True)
    body = api(people["manager"]).get(f"{URL}{finding.pk}/").json()
    assert (body["establishment"], body["open"], body["since"]) == ("FSE-1", True, "2025-12-31")
    assert body["citation"] == "13.30.050(H)(1)(b)"
    assert body["evidence"]["frequency_days"] == 90


def test_it_shows_the_operator_a_finding_as_its_portal_does(people, world):
    finding = Finding.objects.get(establishment=world.pier, rule="gcd.service_overdue", open=True)
    body = api(people["operator"]).get(f"{URL}{finding.pk}/").json()
    assert (body["since"], body["citation"]) == ("2025-12-31", "13.30.050(H)(1)(b)")
    assert not {"evidence", "due", "first_seen_on", "last_seen_on"} & set(body)


def test_it_shows_the_operator_only_the_open_findings(people, world):
    closed = Finding.objects.filter(establishment=world.pier, open=True).first()
    Finding.objects.filter(pk=closed.pk).update(open=False)
    assert api(people["manager"]).get(f"{URL}{closed.pk}/").status_code == 200
    assert api(people["operator"]).get(f"{URL}{closed.pk}/").status_code == 404


def test_it_filters_by_rule_and_open(people):
    response = api(people["manager"]).get(f"{URL}?rule=gcd.service_overdue&open=true")
    assert [r["establishment"] for r in response.json()["results"]] == ["FSE-1"]


def test_it_filters_by_the_date_a_finding_opened(people):
    client = api(people["manager"])
    rows = client.get(f"{URL}?since_from=2025-12-31&since_to=2025-12-31").json()["results"]
    assert {r["rule"] for r in rows} >= {"gcd.service_overdue"}
    assert all(r["since"] == "2025-12-31" for r in rows)

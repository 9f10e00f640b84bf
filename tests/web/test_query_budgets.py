"""No staff page runs more than 15 queries on a generated city (issue 41: a hundred staff at
once). The city is generated (fogkeeper.compliance.generate: 300 establishments, 3 years of
records) and swept; it is given what a generated program lacks and the access matrix's URLs
name (an enforcement case with its letters and invoices, as the demo makes them, an
inspection photo, a login of each role whose records a URL is built from); then the manager
requests every staff page of the access matrix (tests/access) twice, and the second request
is counted (the first fills the process's own caches, as a server's first request does).
Downloads that are not HTML pages (a PDF, a workbook, a ZIP) are not pages staff wait on."""

from __future__ import annotations

from datetime import date, datetime, time

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client, override_settings

from fogkeeper.compliance.generate import generate_program
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.demo.enforcement import load_enforcement
from fogkeeper.registry.models import Agency, Operator
from fogkeeper.web.common import policy
from fogkeeper.web.models import Membership
from tests import databases
from tests.access.test_matrix import add_photos, build, outcome, rows
from tests.access.world import Side
from tests.pages import measured

pytestmark = pytest.mark.django_db

BUDGET = 15
AS_OF = date(2026, 6, 30)
ROLES = ("manager", "inspector", "clerk", "auditor", "operator")


def _operator(agency: Agency) -> Operator:
    """The current operator of an establishment with trainings on record (an operator's URLs
    name one of its trainings)."""
    return (
        Operator.objects.filter(
            tenures__establishment__agency=agency,
            tenures__until__isnull=True,
            tenures__establishment__trainings__isnull=False,
        )
        .order_by("pk")
        .first()
    )


def city_side(agency: Agency) -> Side:
    """The generated agency as a side of the access matrix's world: one login a role."""
    side = Side(agency)
    for role in ROLES:
        user = User.objects.create_user(f"{role}-city")
        operator = _operator(agency) if role == "operator" else None
        Membership.objects.create(user=user, agency=agency, role=role, operator=operator)
        side.users[role] = user
        reached = policy.establishments(user, agency, on=AS_OF)
        side.reach[role] = set(reached.values_list("code", flat=True))
    return side


@pytest.fixture(scope="module")
def city(django_db_setup, django_db_blocker, tmp_path_factory):
    """The generated city, swept, with what the matrix's URLs name; built once a module."""
    media = tmp_path_factory.mktemp("budget-media")
    built = databases.rolled_back(django_db_blocker, as_committed=True)
    with built, override_settings(MEDIA_ROOT=media):
        generated = generate_program(
            establishments=300, years=3, as_of=AS_OF, agency_code="budget", pack="san-clemente"
        )
        side = city_side(generated.agency)
        load_enforcement(side.agency, as_of=AS_OF, staff=side.users["manager"])
        add_photos({"city": side})
        sweep_agency(side.agency, as_of=AS_OF)
        side.mine("manager")
        databases.check_constraints()
        yield side


@pytest.fixture(autouse=True)
def today(city):
    """Noon of AS_OF where the agency is: the pages' today."""
    noon = datetime.combine(AS_OF, time(12), tzinfo=city.agency.get_pack().calendar.tz)
    with time_machine.travel(noon, tick=False):
        yield


def staff_pages() -> list[str]:
    """The URL names the manager reads (GET) by the access matrix, but the API's, the
    admin's and the portal's."""
    return [
        row["name"]
        for row in rows()
        if row["method"] == "GET"
        and row["manager"] == "ok"
        and row["name"].partition(":")[0] not in ("api", "admin", "portal")
    ]


def test_no_staff_page_runs_more_than_15_queries_on_a_generated_city(city):
    client, over, refused = Client(), [], []
    client.force_login(city.users["manager"])
    for name in staff_pages():
        url = build(name, city, "manager")[0]
        measured(client, url)
        response, queries, ms = measured(client, url)
        if outcome(response, admin=False) != "ok":
            refused.append(f"{url}: {response.status_code}")
        elif response.get("Content-Type", "").startswith("text/html") and queries > BUDGET:
            over.append(f"{queries:3} queries {ms:6.0f} ms  {name} {url}")
    assert refused == []
    assert over == [], f"over {BUDGET} queries:\n" + "\n".join(sorted(over, reverse=True))

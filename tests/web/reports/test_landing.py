"""Each role lands where its work is, after signing in and on `/`: the inspector on the field
list, the clerk on the calendar, the manager and the auditor on the dashboard, the outside
roles in their portal; the dashboard keeps its own address for every staff role."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.web.people import PASSWORD, make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture
def sc():
    return two_agencies()[0]


@pytest.mark.parametrize(
    "role, landing",
    [("inspector", "/inspections/field/"), ("clerk", "/calendar/")],
)
def test_it_sends_the_inspector_and_the_clerk_to_their_work(client, sc, role, landing):
    client.force_login(make_user(role, sc, role=role))
    assert client.get("/")["Location"] == landing


@pytest.mark.parametrize("role", ["manager", "auditor"])
def test_it_shows_the_manager_and_the_auditor_the_dashboard(client, sc, role):
    client.force_login(make_user(role, sc, role=role))
    response = client.get("/")
    assert response.status_code == 200
    assert "What needs doing, " in response.content.decode()


@pytest.mark.parametrize("role", ["manager", "inspector", "clerk", "auditor"])
def test_the_dashboard_stays_reachable_by_its_own_link(client, sc, role):
    client.force_login(make_user(role, sc, role=role))
    html = client.get("/dashboard/").content.decode()
    assert "What needs doing, " in html
    assert '<a href="/dashboard/">Dashboard</a>' in html


def test_signing_in_lands_the_inspector_on_the_field_list(client, sc):
    make_user("ines", sc, role="inspector")
    response = client.post(
        "/accounts/login/", {"username": "ines", "password": PASSWORD}, follow=True
    )
    assert response.redirect_chain[-1][0] == "/inspections/field/"
    assert "Inspections in the field" in response.content.decode()


def test_it_sends_an_operator_to_the_portal(client, sc):
    from fogkeeper.registry.models import Operator
    from fogkeeper.web.models import Membership

    user = make_user("olga")
    operator = Operator.objects.create(agency=sc, name="Olga's Diner")
    Membership.objects.create(user=user, agency=sc, role="operator", operator=operator)
    client.force_login(user)
    assert client.get("/")["Location"] == "/portal/"


def test_the_landing_reads_the_agencies_and_the_membership_in_one_query(client, sc):
    client.force_login(make_user("manager", sc, role="manager"))
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/").status_code == 200
    heads = [q["sql"].split("WHERE")[0] for q in queries.captured_queries]
    assert sum('FROM "registry_agency"' in head for head in heads) == 0
    memberships = [head for head in heads if 'FROM "web_membership"' in head]
    assert len(memberships) == 1 and 'JOIN "registry_agency"' in memberships[0]

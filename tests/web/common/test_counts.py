"""The staff pages' chrome counts in one statement: selectors.counts, and the nav's figures
(templatetags/nav.py) read with it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from fogkeeper.portal.models import EnrolmentRequest
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.web.common.selectors import counts
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


def test_it_counts_each_queryset_in_one_statement():
    sc, town = two_agencies()
    for i in range(3):
        make_establishment(sc, code=f"SC-{i}")
    make_establishment(town, code="T-1")
    establishments = FoodServiceEstablishment.objects
    with CaptureQueriesContext(connection) as ctx:
        found = counts(
            sc=establishments.filter(agency=sc),
            town=establishments.filter(agency=town),
            none=establishments.filter(code="nowhere"),
        )
    assert found == {"sc": 3, "town": 1, "none": 0}
    assert len(ctx.captured_queries) == 1


def test_it_refuses_a_name_that_is_not_one():
    with pytest.raises(ValueError, match="not a name for a count"):
        counts(**{"a; DROP": FoodServiceEstablishment.objects.all()})


def test_the_nav_shows_account_requests_waiting_to_the_manager_in_the_same_statement(client):
    sc, _ = two_agencies()
    for i in range(2):
        EnrolmentRequest.objects.create(
            agency=sc,
            kind="operator",
            business_name=f"Cafe {i}",
            contact_name="Ana Ruiz",
            email=f"ana{i}@example.com",
            submitted_at=timezone.now(),
        )
    client.force_login(make_user("manager", sc, role="manager"))
    with CaptureQueriesContext(connection) as ctx:
        page = client.get("/establishments/").content.decode()
    assert '2<span class="usa-sr-only"> account requests waiting' in page
    figures = [q for q in ctx.captured_queries if "portal_enrolmentrequest" in q["sql"]]
    assert len(figures) == 1 and "permits_permitapplication" in figures[0]["sql"]

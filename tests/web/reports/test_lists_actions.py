"""The enforcement actions' list (/enforcement/actions/, fogkeeper/web/reports/lists.py):
the actions newest first in the pack's words, filtered, refused on a bad filter, never
another agency's, and exported as shown.

San Clemente's case EC-7 and the Town's EC-1 are built once for the module (a transaction
rolled back when it ends); each test runs in a savepoint of it and is given the agencies read
again."""

import pytest

from tests.web.enforcement import read_again, two_cases_once
from tests.web.people import make_user
from tests.web.reports.test_lists import csv_rows, shown

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """San Clemente's case EC-7 and the Town's EC-1: the ids of the two agencies."""
    with two_cases_once(django_db_blocker) as ids:
        yield ids


@pytest.fixture
def agencies(built, db):
    """San Clemente and the Town, read again for this test."""
    return read_again(built)


@pytest.fixture
def actions(agencies):
    """San Clemente's case EC-7 and the Town's EC-1, of the module's world."""


@pytest.fixture
def alice(client, agencies):
    """San Clemente's auditor."""
    client.force_login(make_user("alice", agencies[0], role="auditor"))
    return client


def test_it_lists_the_actions_newest_first_in_the_packs_words(alice, actions):
    response = alice.get("/enforcement/actions/")
    assert response.status_code == 200
    assert shown(response, "code") == ["MD-1", "H-1", "SN-1", "NNC-1"]
    html = response.content.decode().split('id="actions"', 1)[1]
    assert "Notice of Non-Compliance" in html
    assert '<a href="/cases/FSE-0042/EC-7/">EC-7</a>' in html
    assert "HD-1" not in html and "notice_of_noncompliance" not in html


@pytest.mark.parametrize(
    "query, codes",
    [
        ("type=notice_of_noncompliance", ["NNC-1"]),
        ("taken_from=2025-05-01&taken_to=2025-06-02", ["H-1", "SN-1"]),
        ("q=taqueria&taken_to=2025-03-31", ["NNC-1"]),
        ("q=ec-7&type=manager_decision", ["MD-1"]),
    ],
)
def test_it_filters_actions(alice, actions, query, codes):
    assert shown(alice.get(f"/enforcement/actions/?{query}"), "code") == codes


@pytest.mark.parametrize(
    "query, field",
    [
        ("type=pardon", "type"),
        ("taken_from=2025-13-01", "taken_from"),
        ("taken_from=2025-06-02&taken_to=2025-06-01", "taken_to"),
    ],
)
def test_it_refuses_a_bad_action_filter(alice, actions, query, field):
    response = alice.get(f"/enforcement/actions/?{query}")
    assert response.status_code == 400
    assert f'id="id_{field}_error"' in response.content.decode()


def test_it_exports_the_actions_shown_as_csv(alice, actions):
    response = alice.get("/enforcement/actions/?export=csv&type=notice_of_noncompliance")
    assert "san-clemente-enforcement-actions.csv" in response["Content-Disposition"]
    rows = csv_rows(response)
    assert rows[0] == [
        "Action",
        "Type",
        "Establishment code",
        "Establishment",
        "Case",
        "Taken on",
        "Citation",
    ]
    assert rows[1][:6] == [
        "NNC-1",
        "Notice of Non-Compliance",
        "FSE-0042",
        "Pier Taqueria",
        "EC-7",
        "2025-03-03",
    ]
    assert rows[1][6]  # the section it was taken under
    assert len(rows) == 2


def test_it_refuses_an_export_in_another_format(alice, actions):
    response = alice.get("/enforcement/actions/?export=pdf")
    assert response.status_code == 400
    assert b"export=csv or export=xlsx" in response.content

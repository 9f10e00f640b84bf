"""The list of the agency's cases (/cases/): open and closed, filtered, searched, paged, and
exported as shown.

San Clemente's cases and the Town's are built once for the module (a transaction rolled back
when it ends, their writes left to the sweeps that end the building); each test runs in a
savepoint of it, so what a test writes is undone after it, and is given San Clemente read
again."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogkeeper import reevaluation
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.services import case_open
from fogkeeper.registry.models import Agency
from tests import databases
from tests.compliance.records import make_pier_taqueria
from tests.records import d, make_establishment
from tests.web.enforcement import closed_case, san_clemente_case, town_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

AS_OF = d("2025-06-06")


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """San Clemente: Pier Taqueria's live case EC-7 and Harbor Grill's closed EC-2; the Town
    has a case of its own. Both swept on June 6. San Clemente's id."""
    with databases.rolled_back(django_db_blocker, as_committed=True):
        with reevaluation.held():  # the sweeps evaluate every establishment written
            sc, town = two_agencies()
            san_clemente_case(make_pier_taqueria(sc))
            closed_case(make_establishment(sc, "FSE-0100", name="Harbor Grill"))
            town_case(make_pier_taqueria(town, code="T-0042"))
        sweep_agency(sc, as_of=AS_OF)
        sweep_agency(town, as_of=AS_OF)
        databases.check_constraints()
        yield sc.pk


@pytest.fixture
def sc(built, db):
    """San Clemente, read again for this test."""
    return Agency.objects.get(pk=built)


@pytest.fixture
def alice(client, sc):
    client.force_login(make_user("alice", sc))
    return client


def listed(response) -> list[tuple[str, str, bool]]:
    return [
        (row.case.establishment.code, row.case.code, row.open)
        for row in response.context["page"].object_list
    ]


def test_it_lists_the_agencys_cases_newest_first_and_none_of_another(alice):
    response = alice.get("/cases/?as_of=2025-06-06")
    assert listed(response) == [("FSE-0042", "EC-7", True), ("FSE-0100", "EC-2", False)]
    html = response.content.decode()
    assert '<a href="/cases/FSE-0042/EC-7/?as_of=2025-06-06">EC-7</a>' in html
    assert "T-0042" not in html


def test_it_shows_the_violation_the_last_action_and_the_next_date(alice):
    html = alice.get("/cases/?as_of=2025-06-06").content.decode()
    row = html.split('<a href="/cases/FSE-0042/EC-7/?as_of=2025-06-06">', 1)[1].split("</tr>", 1)[0]
    assert '<td class="state-open">Open</td>' in row
    assert '<td class="hide-narrow">Pump-out overdue</td>' in row
    assert "Decision of the Utilities Manager (MD-1), 2025-06-05" in row
    assert "<td>2025-06-16: council review request (MD-1)</td>" in row


@pytest.mark.parametrize(
    "state, codes", [("open", ["EC-7"]), ("closed", ["EC-2"]), ("", ["EC-7", "EC-2"])]
)
def test_it_filters_open_or_closed_cases(alice, state, codes):
    response = alice.get(f"/cases/?as_of=2025-06-06&state={state}")
    assert [code for _, code, _ in listed(response)] == codes


def test_it_finds_cases_by_the_establishments_name_or_code(alice):
    assert [c for _, c, _ in listed(alice.get("/cases/?q=harbor"))] == ["EC-2"]
    assert [c for _, c, _ in listed(alice.get("/cases/?q=FSE-0042"))] == ["EC-7"]


def test_it_pages_cases_twenty_five_at_a_time_keeping_the_filters(alice, sc):
    fse = make_establishment(sc, "FSE-0300")
    for n in range(30):
        case_open(establishment=fse, code=f"EC-{100 + n}", opened_on=d("2024-01-01"))
    first = alice.get("/cases/?state=closed")
    assert len(first.context["page"].object_list) == 25
    assert 'href="?state=closed&amp;page=2" rel="next"' in first.content.decode()
    assert len(alice.get("/cases/?state=closed&page=2").context["page"].object_list) == 6


def test_it_lists_in_a_fixed_number_of_queries(alice, sc):
    with CaptureQueriesContext(connection) as few:
        alice.get("/cases/")
    for n in range(5):
        closed_case(make_establishment(sc, f"FSE-04{n}"))
    with CaptureQueriesContext(connection) as more:
        alice.get("/cases/")
    assert len(more.captured_queries) == len(few.captured_queries)


def test_it_exports_the_cases_shown_as_csv(alice):
    response = alice.get("/cases/?as_of=2025-06-06&state=open&export=csv")
    assert "san-clemente-cases.csv" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig"))))
    assert rows == [
        [
            "Case",
            "Establishment code",
            "Establishment",
            "Opened",
            "State",
            "Violations",
            "Last action",
            "Last action taken on",
            "Next date",
            "Next date is",
        ],
        [
            "EC-7",
            "FSE-0042",
            "Pier Taqueria",
            "2025-03-01",
            "Open",
            "Pump-out overdue",
            "Decision of the Utilities Manager (MD-1)",
            "2025-06-05",
            "2025-06-16",
            "council review request (MD-1)",
        ],
    ]


def test_it_exports_every_case_of_the_agency_and_none_of_another_as_excel(alice):
    from openpyxl import load_workbook

    response = alice.get("/cases/?as_of=2025-06-06&export=xlsx")
    assert "san-clemente-cases.xlsx" in response["Content-Disposition"]
    sheet = load_workbook(io.BytesIO(response.getvalue())).active
    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    assert [(r[0], r[1], r[4]) for r in rows[1:]] == [
        ("EC-7", "FSE-0042", "Open"),
        ("EC-2", "FSE-0100", "Closed"),
    ]
    assert alice.get("/cases/?export=json").status_code == 400


def test_it_sends_anonymous_visitors_to_sign_in(client):
    response = client.get("/cases/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/cases/"

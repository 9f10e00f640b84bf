"""The agency-wide lists (fogkeeper/web/reports/lists.py): findings, invoices and enforcement
actions, filtered, paginated, refused on a bad filter, and exported as shown. This module
tests the findings' list, each test on findings of its own; the invoices' and the actions'
lists, read from one world per module, are tested in test_lists_invoices.py and
test_lists_actions.py."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook

from fogkeeper.compliance.models import Finding
from tests.records import d, make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

FORMULA = '=HYPERLINK("http://x.test","Pier")'


@pytest.fixture
def agencies():
    return two_agencies()


@pytest.fixture
def alice(client, agencies):
    """San Clemente's auditor."""
    client.force_login(make_user("alice", agencies[0], role="auditor"))
    return client


def finding(fse, rule: str, since: str, *, closed_on: str | None = None, subject="GT-1"):
    spec = fse.agency.get_pack().rules[rule]
    return Finding.objects.create(
        establishment=fse,
        agency=fse.agency,
        rule=rule,
        subject=subject,
        severity=spec.severity,
        since=d(since),
        open=closed_on is None,
        closed_on=d(closed_on) if closed_on else None,
        citation=spec.citation,
        message=f"{spec.title} at {fse.name}",
        first_seen_on=d(since),
        last_seen_on=d(closed_on or since),
    )


def shown(response, attr: str = "pk") -> list:
    return [getattr(row, attr) for row in response.context["page"].object_list]


def csv_rows(response) -> list[list[str]]:
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig"))))


def sheet_rows(response) -> list[list]:
    sheet = load_workbook(io.BytesIO(response.getvalue())).active
    return [[c.value for c in row] for row in sheet.iter_rows()]


# -- findings ---------------------------------------------------------------------------------


@pytest.fixture
def findings(agencies):
    sc, town = agencies
    pier = make_establishment(sc, code="SC-1", name="Pier Taqueria")
    deli = make_establishment(sc, code="SC-2", name="Canyon Deli", address="9 Camino Real")
    overdue = finding(pier, "gcd.service_overdue", "2025-05-01")
    missing = finding(deli, "permit.missing", "2025-06-01")
    closed = finding(pier, "permit.expired", "2025-01-01", closed_on="2025-02-01")
    term = finding(deli, "permit.term_invalid", "2025-04-01")  # a task
    finding(
        make_establishment(town, code="T-1", name="Town Diner"), "gcd.service_overdue", "2025-05-01"
    )
    return {"overdue": overdue, "missing": missing, "closed": closed, "term": term}


def test_it_lists_the_open_findings_newest_first_and_none_of_another_agency(alice, findings):
    response = alice.get("/findings/")
    assert response.status_code == 200
    assert shown(response) == [findings[k].pk for k in ("missing", "overdue", "term")]
    table = response.content.decode().split('id="findings"', 1)[1]
    assert "Operating without a Discharge Permit" in table and "13.30.050(A)" in table
    assert "Town Diner" not in table and "permit.missing" not in table


@pytest.mark.parametrize(
    "query, expected",
    [
        ("state=closed", ["closed"]),
        ("state=all", ["missing", "overdue", "term", "closed"]),
        ("rule=gcd.service_overdue", ["overdue"]),
        ("severity=task", ["term"]),
        ("q=camino", ["missing", "term"]),
        ("state=all&q=SC-1", ["overdue", "closed"]),
    ],
)
def test_it_filters_findings(alice, findings, query, expected):
    assert shown(alice.get(f"/findings/?{query}")) == [findings[k].pk for k in expected]


@pytest.mark.parametrize(
    "query, field",
    [("rule=no.such_rule", "rule"), ("state=later", "state"), ("severity=grave", "severity")],
)
def test_it_refuses_a_bad_finding_filter_on_its_field(alice, findings, query, field):
    response = alice.get(f"/findings/?{query}")
    assert response.status_code == 400
    assert f'id="id_{field}_error"' in response.content.decode()
    assert alice.get(f"/findings/?{query}&export=csv").status_code == 400


def test_it_says_when_no_finding_matches(alice, agencies):
    html = alice.get("/findings/").content.decode()
    assert "No finding matches these filters." in html and "Download CSV" not in html


def test_it_pages_findings_by_25_keeping_the_filters(alice, agencies):
    fse = make_establishment(agencies[0], code="SC-1")
    for n in range(30):
        finding(fse, "gcd.service_overdue", f"2025-01-{n + 1:02}", subject=f"GT-{n}")
    first = alice.get("/findings/?q=SC-1")
    assert len(shown(first)) == 25
    assert 'href="?q=SC-1&amp;page=2"' in first.content.decode()
    assert len(shown(alice.get("/findings/?q=SC-1&page=2"))) == 5


def test_it_exports_the_filtered_findings_as_csv(alice, findings):
    findings["overdue"].establishment.__class__.objects.filter(code="SC-1").update(name=FORMULA)
    response = alice.get("/findings/?export=csv&rule=gcd.service_overdue")
    assert "san-clemente-findings.csv" in response["Content-Disposition"]
    assert csv_rows(response) == [
        [
            "Establishment code",
            "Establishment",
            "Finding",
            "Severity",
            "Since",
            "Due",
            "Closed on",
            "Citation",
            "What was found",
        ],
        [
            "SC-1",
            "'" + FORMULA,
            "Pump-out overdue",
            "Violation",
            "2025-05-01",
            "",
            "",
            "13.30.050(H)(1)(b)",
            f"Pump-out overdue at {'Pier Taqueria'}",
        ],
    ]


def test_it_exports_every_finding_shown_as_excel_in_a_fixed_number_of_queries(alice, agencies):
    fse = make_establishment(agencies[0], code="SC-1")

    def export() -> tuple[int, list]:
        with CaptureQueriesContext(connection) as ctx:
            rows = sheet_rows(alice.get("/findings/?export=xlsx&state=all"))
        return len(ctx.captured_queries), rows

    finding(fse, "gcd.service_overdue", "2025-01-01", subject="GT-0")
    few, _ = export()
    for n in range(1, 40):
        finding(fse, "gcd.service_overdue", f"2025-02-{n % 28 + 1:02}", subject=f"GT-{n}")
    more, rows = export()
    assert more == few
    assert rows[0][:3] == ["Establishment code", "Establishment", "Finding"]
    assert len(rows) == 41
    assert rows[-1][4].date() == d("2025-01-01")  # the oldest last

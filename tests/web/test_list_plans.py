"""The staff lists on a generated city: each filter's page and its count are read through an
index, and the count is a plain COUNT of the list's rows (no join or grouping it does not need).

What is measured: two programs are generated, a small one (the agency listed, 30
establishments) beside a larger one (600), swept, and ANALYZEd; each list is asked for with
each of its filters, the page's queries on the list's table (the page count and the page) are
EXPLAINed (FORMAT JSON), and no plan may read a big table (BIG_ROWS rows or more, as
pg_class counts them) with a Seq Scan. A seq scan there reads every agency's rows to show one
agency's 25; with the agency listed a twentieth of each table, the planner prefers the index
whenever the list has one that serves the filter, so the test fails when an index is missing
or a query cannot use it (a Count over a join, which groups every row first). The planner's
own settings are left as they are: forcing it off seq scans would prove nothing.

Below BIG_ROWS rows a seq scan reads a few pages and is what the planner should choose; the
establishments' own tables (one row each) stay below it at this size. The inspections table
is the one exception (SMALL_ENOUGH): at ~2,400 rows in ~25 pages, one pass over it costs the
planner less than probing inspection_fse_date once per establishment, and it says so. The
trainings (~6,000 rows) are near that line too: their count takes training_fse_date here, but
with other seeds of the larger city the planner may cost one pass over them as cheaper."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date

import pytest
from django.db import connection
from django.db.models import Count
from django.test import Client
from django.test.utils import CaptureQueriesContext

from fogkeeper.compliance.generate import generate_program
from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.statistics import analyze_tables
from fogkeeper.web.common.paging import COUNT_CAP
from tests import databases
from tests.web.people import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("list-plans")]

AS_OF = date(2025, 6, 6)
BIG_ROWS = 1000
SMALL_ENOUGH = {"inspections_inspection"}  # see the module's docstring

# each list, its table, and its filters (RULE: the rule most found in the agency listed)
LISTS = {
    "/findings/": (
        "compliance_finding",
        ["", "state=closed", "state=all", "rule=RULE", "severity=violation", "q=a"],
    ),
    "/inspections/": (
        "inspections_inspection",
        ["", "date_from=2025-01-01", "result=compliant", "result=not_compliant", "q=a"],
    ),
    "/pump-outs/": (
        "maintenance_service",
        ["", "date_from=2025-01-01&date_to=2025-03-31", "device_kind=interceptor", "q=a"],
    ),
    "/trainings/": ("training_training", ["", "date_from=2025-01-01", "q=a"]),
    "/establishments/": (
        "registry_foodserviceestablishment",
        ["", "status=non_compliant", "rule=RULE", "q=a", "sort=-next_due"],
    ),
}
# The lists whose tables the generated city keeps below BIG_ROWS (a few hundred invoices and
# actions), where a seq scan is the planner's right choice: their plans are read with seq scans
# priced out (enable_seqscan off), which the planner then still chooses only where no index
# serves the query.
SMALL_LISTS = {
    "/invoices/": ("billing_invoice", ["", "issued_from=2025-01-01", "state=paid", "q=a"]),
    "/enforcement/actions/": (
        "enforcement_enforcementaction",
        ["", "taken_from=2025-01-01", "type=notice_of_noncompliance", "q=a"],
    ),
}


@pytest.fixture(scope="module")
def city(django_db_setup, django_db_blocker):
    with databases.rolled_back(django_db_blocker, as_committed=True):
        others = generate_program(
            establishments=600,
            years=3,
            as_of=AS_OF,
            agency_code="others",
            pack="san-clemente",
            seed=2,  # not the listed agency's: two cities alike would be one city twice
        ).agency
        listed = generate_program(
            establishments=30, years=3, as_of=AS_OF, agency_code="listed", pack="san-clemente"
        ).agency
        sweep_agency(others, as_of=AS_OF)
        sweep_agency(listed, as_of=AS_OF)
        user = make_user("manager", listed, role="manager")
        databases.check_constraints()
        analyze_tables()
        rule = (
            Finding.objects.filter(agency=listed)
            .values("rule")
            .annotate(n=Count("pk"))
            .order_by("-n", "rule")[0]["rule"]
        )
        yield user, rule


def _urls(lists=LISTS) -> Iterator[tuple[str, str, str]]:
    for path, (table, filters) in lists.items():
        for query in filters:
            yield path, query, table


def _big_tables() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname FROM pg_class WHERE relkind = 'r' AND reltuples >= %s", [BIG_ROWS]
        )
        return {name for (name,) in cursor.fetchall()}


def _seq_scans(plan: dict) -> Iterator[str]:
    if plan.get("Node Type") == "Seq Scan":
        yield plan["Relation Name"]
    for child in plan.get("Plans", []):
        yield from _seq_scans(child)


def _plan(sql: str) -> dict:
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}")
        found = cursor.fetchone()[0]
    return (json.loads(found) if isinstance(found, str) else found)[0]["Plan"]


def _list_queries(client, url: str, table: str) -> list[str]:
    """The queries of the page that read the list's table: its count and its page."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return [
        q["sql"]
        for q in captured.captured_queries
        if f'FROM "{table}"' in q["sql"] and not q["sql"].startswith("DECLARE")
    ]


@pytest.mark.parametrize(("path", "query", "table"), list(_urls()))
def test_each_list_filter_reads_the_big_tables_through_an_index(city, path, query, table):
    user, rule = city
    client = Client()
    client.force_login(user)
    url = f"{path}?{query.replace('RULE', rule)}"
    queries = _list_queries(client, url, table)
    count = [sql for sql in queries if sql.startswith("SELECT COUNT(*)")]
    assert count, f"{url}: no count of {table}"
    big = _big_tables() - SMALL_ENOUGH
    for sql in queries:
        scanned = set(_seq_scans(_plan(sql))) & big
        assert not scanned, f"{url} reads all of {sorted(scanned)}:\n{sql}"


@pytest.mark.parametrize(("path", "query", "table"), list(_urls(SMALL_LISTS)))
def test_each_filter_of_a_small_list_has_an_index_to_read(city, path, query, table):
    user, _ = city
    client = Client()
    client.force_login(user)
    url = f"{path}?{query}"
    queries = _list_queries(client, url, table)
    assert any(sql.startswith("SELECT COUNT(*)") for sql in queries), f"{url}: no count"
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # in the test's transaction only
    for sql in queries:
        assert table not in set(_seq_scans(_plan(sql))), f"{url} has no index on {table}:\n{sql}"


@pytest.mark.parametrize(
    "path",
    [
        "/inspections/",
        "/trainings/",
        "/findings/",
        "/pump-outs/",
        "/invoices/",
        "/enforcement/actions/",
    ],
)
def test_an_unfiltered_list_counts_its_rows_without_grouping_them(city, path):
    """The page count is a COUNT of the list's rows' ids, no further than COUNT_CAP + 1
    (web/common/paging.py): the figures each row shows (checklist items, attendees) are not
    joined and grouped to count them."""
    user, _ = city
    client = Client()
    client.force_login(user)
    table = {**LISTS, **SMALL_LISTS}[path][0]
    count = [s for s in _list_queries(client, path, table) if s.startswith("SELECT COUNT(*)")]
    assert len(count) == 1
    assert "GROUP BY" not in count[0]
    inner = count[0].removeprefix("SELECT COUNT(*) FROM (SELECT ")
    assert inner.startswith(f'"{table}"."id" AS "pk" FROM') and f"LIMIT {COUNT_CAP + 1}" in inner

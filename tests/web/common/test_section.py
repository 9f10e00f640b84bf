"""A page's section of a long list (web.common.selectors.section): the first page read one row
long and counted from its rows when the list ends on it; a full first page, or another page,
counted by the database."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogkeeper.maintenance.models import Service
from fogkeeper.web.common.paging import section
from tests.records import make_device, make_establishment, make_service
from tests.web.people import two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture
def five():
    sc, _ = two_agencies()
    device = make_device(make_establishment(sc, code="SC-1"), "GI-1")
    for day in range(1, 6):
        make_service(device, f"M-{day}", f"2026-01-{day:02d}")
    return Service.objects.filter(device=device).order_by("-date")


def _read(rows, number, per):
    with CaptureQueriesContext(connection) as queries:
        page = section(rows, number, per)
        shown = [s.manifest_number for s in page]
        figures = (page.paginator.count, page.paginator.num_pages, page.has_next())
    return shown, figures, [q["sql"] for q in queries.captured_queries]


@pytest.mark.parametrize("number", [None, "1", 1])
def test_a_list_that_ends_on_its_first_page_is_counted_from_its_rows(five, number):
    shown, figures, sql = _read(five, number, per=5)
    assert shown == ["M-5", "M-4", "M-3", "M-2", "M-1"]
    assert figures == (5, 1, False)
    assert len(sql) == 1 and "COUNT" not in sql[0]


def test_a_full_first_page_is_counted_by_the_database(five):
    shown, figures, sql = _read(five, None, per=2)
    assert shown == ["M-5", "M-4"] and figures == (5, 3, True)
    assert len(sql) == 2 and any("COUNT" in s for s in sql)


@pytest.mark.parametrize(
    ("number", "shown"), [("3", ["M-1"]), ("99", ["M-1"]), ("x", ["M-5", "M-4"])]
)
def test_another_page_is_counted_and_a_page_past_the_end_or_not_a_number_answers_one(
    five, number, shown
):
    assert _read(five, number, per=2)[0] == shown


def test_an_empty_list_has_one_empty_page(five):
    shown, figures, _ = _read(five.none(), None, per=2)
    assert shown == [] and figures == (0, 1, False)

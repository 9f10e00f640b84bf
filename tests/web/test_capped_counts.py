"""A list of the agency's history counts no further than COUNT_CAP rows (web/common/paging.py):
past it, the page says "more than", pages only through the counted rows and points to the
filters and the downloads, and the count asks the database for no more than COUNT_CAP + 1
ids, whatever the list shows of each row."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogkeeper.web.common import paging
from fogkeeper.web.common.paging import CappedPaginator
from fogkeeper.web.records import selectors
from tests.records import make_device, make_establishment, make_hauler, make_service
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture
def pumped(client):
    """Seven pump-outs of San Clemente, one of the Town; a clerk of San Clemente signed in."""
    sc, town = two_agencies()
    device = make_device(make_establishment(sc, code="SC-1"), "GI-1")
    hauler = make_hauler(sc, "H-1")
    for day in range(1, 8):
        make_service(device, f"M-{day}", f"2026-01-{day:02d}", hauler=hauler)
    town_device = make_device(make_establishment(town, code="T-1"), "GI-9")
    make_service(town_device, "M-TOWN", "2026-01-03", hauler=make_hauler(town, "H-T"))
    client.force_login(make_user("alice", sc, role="clerk"))
    return sc


def test_under_the_cap_the_count_is_exact(client, pumped, monkeypatch):
    monkeypatch.setattr(paging, "COUNT_CAP", 7)
    html = client.get("/pump-outs/").content.decode()
    assert "7 pump-outs" in html
    assert "More than" not in html and 'id="count-capped"' not in html


def test_past_the_cap_it_says_more_than_and_pages_only_the_counted_rows(
    client, pumped, monkeypatch
):
    monkeypatch.setattr(paging, "COUNT_CAP", 4)
    monkeypatch.setattr("fogkeeper.web.records.lists.PAGE_SIZE", 2)
    html = client.get("/pump-outs/").content.decode()
    assert "More than 4 pump-outs" in html
    assert "The pages go as far as the first 4 pump-outs" in html
    assert "Page 1 of 2" in html
    # a page past the counted rows gives the last of them: the 3rd and 4th newest
    last = client.get("/pump-outs/?page=9").content.decode()
    assert "M-5" in last and "M-4" in last and "M-3" not in last and "M-6" not in last
    # a filter that matches fewer rows than the cap is counted exactly
    assert (
        "2 pump-outs matching these filters"
        in client.get("/pump-outs/?date_to=2026-01-02").content.decode()
    )


def test_the_export_holds_every_matching_row_past_the_cap(client, pumped, monkeypatch):
    monkeypatch.setattr(paging, "COUNT_CAP", 4)
    response = client.get("/pump-outs/?export=csv")
    text = b"".join(response.streaming_content).decode()
    assert all(f"M-{day}" in text for day in range(1, 8)) and "M-TOWN" not in text


def test_the_count_reads_only_ids_and_no_more_than_the_cap(pumped, monkeypatch):
    monkeypatch.setattr(paging, "COUNT_CAP", 5)
    with CaptureQueriesContext(connection) as queries:
        paginator = CappedPaginator(selectors.services(agency=pumped), 25)
        assert (paginator.count, paginator.capped, paginator.shown_count) == (
            6,
            True,
            "more than 5",
        )
    [sql] = [q["sql"] for q in queries.captured_queries]
    assert "LIMIT 6" in sql
    assert "ORDER BY" not in sql and "EXISTS" not in sql  # not the list's order nor its columns


def test_a_list_of_rows_already_read_is_counted_by_its_length():
    paginator = CappedPaginator([1, 2, 3], 2)
    assert (paginator.count, paginator.num_pages, paginator.capped) == (3, 2, False)

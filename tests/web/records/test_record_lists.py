"""The lists of inspections, pump-outs and trainings (fogkeeper/web/records/lists.py): filters,
pages, exports of every matching row, refused filters, and never another agency's rows."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook

from fogkeeper.maintenance.models import ServiceDispute
from fogkeeper.web.common import pages as views
from tests.records import (
    make_device,
    make_employee,
    make_establishment,
    make_hauler,
    make_inspection,
    make_service,
    make_training,
)
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    sc, town = two_agencies()
    pier = make_establishment(sc, code="SC-1", name="Pier Taqueria")
    cafe = make_establishment(sc, code="SC-2", name="=Harbor Cafe", address="9 Coast Hwy")
    gi, trap = make_device(pier, "GI-1"), make_device(cafe, "GT-1", kind="trap")
    acme, vac = make_hauler(sc, "H-1", name="Acme Pumping"), make_hauler(sc, "H-2", name="Vac")
    make_service(gi, "M-1", "2026-01-10", hauler=acme, gallons_removed=Decimal("500.0"))
    make_service(gi, "M-2", "2026-03-05", hauler=vac, fog_inches=Decimal("2.50"))
    disputed = make_service(trap, "M-3", "2026-02-01", hauler=acme)
    alice = make_user("alice", sc, role="clerk")
    ServiceDispute.objects.create(
        service=disputed, raised_by=alice, raised_on=date(2026, 2, 3), reason="manifest unreadable"
    )
    ines = make_user("ines", sc)
    insp = make_inspection(pier, "I-1", "2026-02-10", answers=[("a", True), ("b", False)])
    insp.inspector = ines
    insp.save()
    make_inspection(cafe, "I-2", "2026-04-01", answers=[("a", True)])
    e1, e2 = make_employee(pier, "E-1"), make_employee(pier, "E-2")
    make_training(pier, "T-1", "2026-01-20", [e1, e2])
    make_training(cafe, "T-2", "2026-05-02", [])
    # the Town's records, which San Clemente's staff never see
    town_fse = make_establishment(town, code="T-1", name="Town Diner")
    town_gi, town_hauler = make_device(town_fse, "GI-9"), make_hauler(town, "H-TOWN")
    make_service(town_gi, "M-TOWN", "2026-01-15", hauler=town_hauler)
    make_inspection(town_fse, "I-TOWN", "2026-01-15")
    make_training(town_fse, "T-TOWN", "2026-01-15", [])
    return {"sc": sc, "town": town, "alice": alice}


@pytest.fixture
def clerk(client, world):
    client.force_login(world["alice"])
    return client


def _html(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.content.decode()[:500]
    return response.content.decode()


def _csv(response) -> list[list[str]]:
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode("utf-8").removeprefix("\ufeff")
    return list(csv.reader(io.StringIO(text)))


def _xlsx(response) -> list[tuple]:
    assert response.status_code == 200
    book = load_workbook(io.BytesIO(b"".join(response.streaming_content)), read_only=True)
    return list(book.active.values)


# -- the pages ---------------------------------------------------------------------------------


def test_it_lists_the_pump_outs_newest_first_linking_to_the_establishment(clerk):
    html = _html(clerk, "/pump-outs/")
    assert html.index("M-2") < html.index("M-3") < html.index("M-1")
    assert "M-TOWN" not in html
    assert 'href="/establishments/SC-1/"' in html
    assert "3 pump-outs" in html and "Disputed" in html and "Grease trap" in html


def test_it_filters_the_pump_outs_by_hauler_date_search_and_device_kind(clerk):
    assert "M-2" not in _html(clerk, "/pump-outs/?hauler=H-1")
    html = _html(clerk, "/pump-outs/?date_from=2026-01-01&date_to=2026-02-01")
    assert "M-1" in html and "M-3" in html and "M-2" not in html
    html = _html(clerk, "/pump-outs/?q=coast")
    assert "M-3" in html and "M-1" not in html
    html = _html(clerk, "/pump-outs/?device_kind=trap")
    assert "M-3" in html and "M-1" not in html


def test_it_says_plainly_when_no_pump_out_matches(clerk):
    html = _html(clerk, "/pump-outs/?date_from=2030-01-01")
    assert "No pump-out matches these filters." in html
    assert "export=csv" not in html


def test_it_lists_the_inspections_with_their_inspector_and_result(clerk):
    html = _html(clerk, "/inspections/")
    assert html.index("I-2") < html.index("I-1") and "I-TOWN" not in html
    assert "1 of 2 items out of compliance" in html and "All 1 item in compliance" in html
    assert "Authorized Inspector" in html  # the pack's title of the inspector
    assert "I-2" not in _html(clerk, "/inspections/?inspector=ines")
    assert "I-2" not in _html(clerk, "/inspections/?result=not_compliant")
    assert "I-1" not in _html(clerk, "/inspections/?result=compliant")
    assert "I-1" not in _html(clerk, "/inspections/?q=harbor")


def test_it_lists_the_trainings_with_their_attendees(clerk):
    html = _html(clerk, "/trainings/")
    assert html.index("2026-05-02") < html.index("2026-01-20") and "2026-01-15" not in html
    assert "<td>T-2</td>" not in html  # a training by its date and topic, not its code
    assert '<td class="num">2</td>' in html
    assert "2026-05-02" not in _html(clerk, "/trainings/?date_to=2026-03-01")


def test_it_pages_the_list_keeping_the_filters(clerk, world, monkeypatch):
    monkeypatch.setattr(views, "PAGE_SIZE", 1)
    monkeypatch.setattr("fogkeeper.web.records.lists.PAGE_SIZE", 1)
    first = _html(clerk, "/pump-outs/?hauler=H-1")
    assert "M-3" in first and "M-1" not in first
    assert "?hauler=H-1&amp;page=2" in first
    assert "M-1" in _html(clerk, "/pump-outs/?hauler=H-1&page=2")


@pytest.mark.parametrize(
    "query, field",
    [
        ("date_from=2026-02-30", "date_from"),
        ("date_to=2026-13-01", "date_to"),
        ("date_from=2026-03-01&date_to=2026-02-01", "date_to"),
        ("hauler=NOBODY", "hauler"),
        ("device_kind=septic", "device_kind"),
    ],
)
def test_it_refuses_an_impossible_filter_naming_the_field(clerk, query, field):
    html = _html(clerk, f"/pump-outs/?{query}", status=400)
    assert f'id="id_{field}_error"' in html
    assert "M-1" not in html
    assert clerk.get(f"/pump-outs/?{query}&export=csv").status_code == 400


def test_it_keeps_the_filters_refused_in_the_form(clerk):
    html = _html(clerk, "/trainings/?date_from=2026-03-01&date_to=2026-02-01&q=pier", 400)
    assert 'value="2026-03-01"' in html and 'value="pier"' in html
    assert "The end (2026-02-01) is before the start (2026-03-01)." in html


def test_it_refuses_another_agencys_hauler_as_a_filter_as_if_it_did_not_exist(clerk):
    html = _html(clerk, "/pump-outs/?hauler=H-TOWN", 400)
    assert "Choose one of the agency&#x27;s haulers." in html
    assert "M-TOWN" not in html and "Hauler H-TOWN" not in html  # nor among the choices


# -- exports -----------------------------------------------------------------------------------


def test_it_exports_the_filtered_pump_outs_as_csv_with_the_agencys_headings(clerk):
    rows = _csv(clerk.get("/pump-outs/?hauler=H-1&export=csv"))
    assert rows == [
        [
            "Date",
            "Manifest number",
            "Establishment code",
            "Establishment",
            "Device",
            "Device kind",
            "Hauler",
            "Full pump-out",
            "Gallons removed",
            "FOG (inches)",
            "Solids (inches)",
            "Recorded from",
            "Disputed",
        ],
        [
            "2026-02-01",
            "M-3",
            "SC-2",
            "'=Harbor Cafe",
            "GT-1",
            "Grease trap",
            "Acme Pumping",
            "yes",
            "",
            "",
            "",
            "Recorded by staff",
            "yes",
        ],
        [
            "2026-01-10",
            "M-1",
            "SC-1",
            "Pier Taqueria",
            "GI-1",
            "Grease interceptor",
            "Acme Pumping",
            "yes",
            "500.0",
            "",
            "",
            "Recorded by staff",
            "no",
        ],
    ]


def test_it_exports_every_matching_row_not_only_the_page(clerk, monkeypatch):
    monkeypatch.setattr("fogkeeper.web.records.lists.PAGE_SIZE", 1)
    assert len(_csv(clerk.get("/pump-outs/?export=csv"))) == 1 + 3


def test_it_exports_the_pump_outs_as_a_workbook(clerk):
    rows = _xlsx(clerk.get("/pump-outs/?date_from=2026-02-01&export=xlsx"))
    assert rows[0][:3] == ("Date", "Manifest number", "Establishment code")
    assert [(r[0], r[1], r[3], r[12]) for r in rows[1:]] == [
        (datetime(2026, 3, 5), "M-2", "Pier Taqueria", "no"),
        (datetime(2026, 2, 1), "M-3", "'=Harbor Cafe", "yes"),
    ]
    assert rows[1][9] == 2.5  # a number, as stored


def test_it_names_the_export_after_the_agency(clerk):
    response = clerk.get("/trainings/?export=xlsx")
    assert response["Content-Disposition"] == 'attachment; filename="san-clemente-trainings.xlsx"'


def test_it_exports_the_inspections_with_their_result(clerk):
    rows = _csv(clerk.get("/inspections/?export=csv"))
    assert rows[0] == [
        "Date",
        "Inspection",
        "Establishment code",
        "Establishment",
        "Authorized Inspector",
        "Items answered",
        "Items out of compliance",
        "Result",
        "Notes",
    ]
    assert rows[1:] == [
        [
            "2026-04-01",
            "I-2",
            "SC-2",
            "'=Harbor Cafe",
            "",
            "1",
            "0",
            "All 1 item in compliance",
            "",
        ],
        [
            "2026-02-10",
            "I-1",
            "SC-1",
            "Pier Taqueria",
            "ines",
            "2",
            "1",
            "1 of 2 items out of compliance",
            "",
        ],
    ]
    assert len(_xlsx(clerk.get("/inspections/?result=compliant&export=xlsx"))) == 2


def test_it_exports_the_trainings(clerk):
    rows = _csv(clerk.get("/trainings/?q=pier&export=csv"))
    assert rows == [
        [
            "Date",
            "Training",
            "Establishment code",
            "Establishment",
            "Topic",
            "Trainer",
            "Attendees",
            "Signed the log",
        ],
        [
            "2026-01-20",
            "T-1",
            "SC-1",
            "Pier Taqueria",
            "Kitchen BMPs and FOG control",
            "",
            "2",
            "2",
        ],
    ]


def test_it_refuses_an_export_format_it_does_not_offer(clerk):
    response = clerk.get("/inspections/?export=pdf")
    assert response.status_code == 400
    assert "export=csv or export=xlsx" in response.content.decode()


def test_it_never_exports_another_agencys_rows(client, world):
    client.force_login(make_user("charlie", world["town"], role="auditor"))
    assert [r[1] for r in _csv(client.get("/pump-outs/?export=csv"))[1:]] == ["M-TOWN"]
    assert [r[1] for r in _csv(client.get("/inspections/?export=csv"))[1:]] == ["I-TOWN"]
    assert [r[1] for r in _csv(client.get("/trainings/?export=csv"))[1:]] == ["T-TOWN"]
    assert "Acme" not in _html(client, "/pump-outs/")


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
        b"".join(response.streaming_content)
    return len(ctx.captured_queries)


@pytest.mark.parametrize("url", ["/pump-outs/", "/inspections/", "/trainings/"])
@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_the_queries_of_an_export_do_not_grow_with_its_rows(clerk, world, url, fmt):
    before = _queries(clerk, f"{url}?export={fmt}")
    sc = world["sc"]
    for i in range(30):
        fse = make_establishment(sc, code=f"X-{i}", name=f"Extra {i}", operator=f"Op {i}")
        device, e = make_device(fse, "GI-1"), make_employee(fse, "E-1")
        make_service(device, f"MX-{i}", "2026-02-02", hauler=make_hauler(sc, f"HX-{i}"))
        make_inspection(fse, f"IX-{i}", "2026-02-02", answers=[("a", False)])
        make_training(fse, f"TX-{i}", "2026-02-02", [e])
    assert _queries(clerk, f"{url}?export={fmt}") == before


@pytest.mark.parametrize("url", ["/pump-outs/", "/inspections/", "/trainings/"])
def test_the_queries_of_a_page_do_not_grow_with_its_rows(clerk, world, url):
    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert clerk.get(url).status_code == 200
        return len(ctx.captured_queries)

    before = queries()
    sc = world["sc"]
    for i in range(10):
        fse = make_establishment(sc, code=f"X-{i}", name=f"Extra {i}", operator=f"Op {i}")
        device, e = make_device(fse, "GI-1"), make_employee(fse, "E-1")
        make_service(device, f"MX-{i}", "2026-02-02", hauler=make_hauler(sc, f"HX-{i}"))
        make_inspection(fse, f"IX-{i}", "2026-02-02", answers=[("a", False)])
        make_training(fse, f"TX-{i}", "2026-02-02", [e])
    assert queries() == before

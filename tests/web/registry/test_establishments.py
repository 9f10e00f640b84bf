import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.registry.models import Lateral, SewerSegment
from tests.records import d, make_device, make_establishment, make_permit
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture
def agencies():
    return two_agencies()


@pytest.fixture
def alice(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    return client


def status(fse, value: str, next_due: str | None = None, violations: int = 0):
    return ComplianceStatus.objects.create(
        establishment=fse,
        as_of=d("2025-06-30"),
        status=value,
        open_violations=violations,
        next_due=d(next_due) if next_due else None,
    )


def names(response) -> list[str]:
    return [fse.name for fse in response.context["page"].object_list]


def test_it_lists_only_the_agencys_establishments(alice, agencies):
    sc, town = agencies
    make_establishment(sc, code="SC-1", name="Pier Taqueria")
    make_establishment(town, code="T-1", name="Town Diner")
    response = alice.get("/establishments/")
    assert names(response) == ["Pier Taqueria"]
    assert b"Town Diner" not in response.content


def test_it_never_exports_another_agencys_establishments(alice, agencies):
    sc, town = agencies
    make_establishment(sc, code="SC-1", name="Pier Taqueria")
    make_establishment(town, code="T-1", name="Town Diner", address="1 Town Sq")
    body = alice.get("/establishments/?export=csv&q=Town").getvalue().decode("utf-8-sig")
    assert "Town Diner" not in body


def test_it_searches_name_address_and_permit_number(alice, agencies):
    sc, _ = agencies
    make_establishment(sc, code="SC-1", name="Pier Taqueria", address="101 Avenida Del Mar")
    make_establishment(sc, code="SC-2", name="Canyon Deli", address="9 Camino Real")
    make_permit(make_establishment(sc, code="SC-3", name="Harbor Grill"), "DP-2024-77")
    assert names(alice.get("/establishments/?q=taqueria")) == ["Pier Taqueria"]
    assert names(alice.get("/establishments/?q=camino")) == ["Canyon Deli"]
    assert names(alice.get("/establishments/?q=2024-77")) == ["Harbor Grill"]


def test_it_filters_by_status_and_next_due(alice, agencies):
    sc, _ = agencies
    status(make_establishment(sc, code="A", name="Alpha"), "compliant", "2025-09-01")
    status(make_establishment(sc, code="B", name="Bravo"), "non_compliant", "2025-07-01", 2)
    assert names(alice.get("/establishments/?status=non_compliant")) == ["Bravo"]
    assert names(alice.get("/establishments/?due_by=2025-08-01")) == ["Bravo"]


def test_it_filters_by_device_kind_and_sewer_segment(alice, agencies):
    sc, _ = agencies
    alpha = make_establishment(sc, code="A", name="Alpha")
    make_device(alpha, "GT-1", "trap")
    bravo = make_establishment(sc, code="B", name="Bravo")
    make_device(bravo, "GI-1", "interceptor")
    segment = SewerSegment.objects.create(agency=sc, code="SEG-9")
    Lateral.objects.create(establishment=bravo, segment=segment)
    assert names(alice.get("/establishments/?device=trap")) == ["Alpha"]
    assert names(alice.get("/establishments/?segment=SEG-9")) == ["Bravo"]


def test_it_sorts_by_a_column_either_way(alice, agencies):
    sc, _ = agencies
    status(make_establishment(sc, code="A", name="Alpha"), "compliant", "2025-09-01")
    status(make_establishment(sc, code="B", name="Bravo"), "compliant", "2025-07-01")
    assert names(alice.get("/establishments/?sort=next_due")) == ["Bravo", "Alpha"]
    assert names(alice.get("/establishments/?sort=-name")) == ["Bravo", "Alpha"]


def test_it_pages_by_25_keeping_the_filters_in_the_links(alice, agencies):
    sc, _ = agencies
    for i in range(30):
        make_establishment(sc, code=f"FSE-{i:02}", name=f"Place {i:02}")
    first = alice.get("/establishments/?q=Place")
    assert len(names(first)) == 25
    assert 'href="?q=Place&amp;page=2"' in first.content.decode()
    assert names(alice.get("/establishments/?q=Place&page=2")) == [
        f"Place {i}" for i in range(25, 30)
    ]


def test_it_answers_htmx_with_the_rows_only(alice, agencies):
    make_establishment(agencies[0], code="SC-1", name="Pier Taqueria")
    response = alice.get("/establishments/", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert "Pier Taqueria" in html
    assert "<html" not in html
    assert "HX-Request" in response["Vary"]


def test_it_exports_the_filtered_list_as_csv(alice, agencies):
    sc, _ = agencies
    fse = make_establishment(sc, code="SC-1", name="Pier Taqueria", city="San Clemente")
    make_permit(fse, "DP-1")
    status(fse, "non_compliant", "2025-07-01", 2)
    make_establishment(sc, code="SC-2", name="Canyon Deli")
    response = alice.get("/establishments/?export=csv&status=non_compliant")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "san-clemente-establishments.csv" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig"))))
    assert rows == [
        [
            "Code",
            "Name",
            "Address",
            "City",
            "Status",
            "Open violations",
            "Next due",
            "Discharge Permit number",
        ],
        [
            "SC-1",
            "Pier Taqueria",
            "101 Avenida Del Mar",
            "San Clemente",
            "Not in compliance",
            "2",
            "2025-07-01",
            "DP-1",
        ],
    ]


def test_it_labels_every_filter(alice):
    html = alice.get("/establishments/").content.decode()
    for field in ("q", "f-status", "f-rule", "f-device", "f-due", "f-segment", "f-sort"):
        assert f'<label for="{field}">' in html
    assert "Search name, address or Discharge Permit number" in html


@pytest.mark.parametrize("size", [5, 30])
def test_it_lists_in_a_fixed_number_of_queries(
    alice, agencies, size, django_assert_max_num_queries
):
    sc, _ = agencies
    for i in range(size):
        fse = make_establishment(sc, code=f"FSE-{i:02}", name=f"Place {i:02}")
        make_permit(fse, f"DP-{i}")
        make_device(fse, "GI-1")
        status(fse, "compliant", "2025-07-01")
    with django_assert_max_num_queries(14):  # with the nav's figures (inbox, requests)
        alice.get("/establishments/?device=interceptor&sort=-next_due")
    with django_assert_max_num_queries(6):  # the rows read as the export streams
        alice.get("/establishments/?export=csv").getvalue()
    with django_assert_max_num_queries(6):
        alice.get("/establishments/?export=xlsx").getvalue()


def test_it_runs_the_same_queries_for_5_as_for_30_establishments(alice, agencies):
    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            alice.get("/establishments/?q=Place&sort=-violations&page=1")
        return len(ctx.captured_queries)

    def add(start: int, stop: int) -> None:
        for i in range(start, stop):
            fse = make_establishment(agencies[0], code=f"FSE-{i:02}", name=f"Place {i:02}")
            make_permit(fse, f"DP-{i}")
            status(fse, "non_compliant", "2025-07-01", 1)

    add(0, 5)
    five = queries()
    add(5, 30)
    assert queries() == five


def test_it_exports_the_filtered_list_as_excel(alice, agencies):
    from openpyxl import load_workbook

    sc, town = agencies
    fse = make_establishment(sc, code="SC-1", name="Pier Taqueria")
    status(fse, "compliant", "2025-07-01")
    make_establishment(town, code="T-1", name="Town Diner")
    response = alice.get("/establishments/?export=xlsx")
    assert "san-clemente-establishments.xlsx" in response["Content-Disposition"]
    sheet = load_workbook(io.BytesIO(response.getvalue())).active
    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    assert rows[0][:2] == ["Code", "Name"]
    assert [r[:2] for r in rows[1:]] == [["SC-1", "Pier Taqueria"]]
    assert rows[1][6].date().isoformat() == "2025-07-01"


def test_it_streams_the_export_with_a_formula_looking_name_neutralised(alice, agencies):
    from openpyxl import load_workbook

    make_establishment(agencies[0], code="SC-1", name='=HYPERLINK("http://x.test","Pier")')
    response = alice.get("/establishments/?export=csv")
    assert response.streaming
    rows = list(csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig"))))
    assert rows[1][1] == '\'=HYPERLINK("http://x.test","Pier")'
    book = load_workbook(io.BytesIO(alice.get("/establishments/?export=xlsx").getvalue()))
    assert book.active["B2"].value == '\'=HYPERLINK("http://x.test","Pier")'
    assert book.active["B2"].data_type == "s"


def test_it_refuses_an_export_in_another_format(alice):
    response = alice.get("/establishments/?export=pdf")
    assert response.status_code == 400
    assert b"export=csv or export=xlsx" in response.content


def test_it_keeps_the_chosen_rule_and_segment_selected(alice, agencies):
    sc, _ = agencies
    for code in ("SEG-1", "SEG-<2>"):
        SewerSegment.objects.create(agency=sc, code=code)
    html = alice.get("/establishments/?segment=SEG-1&rule=gcd.service_overdue").content.decode()
    assert '<option value="SEG-1" selected>SEG-1</option>' in html
    assert '<option value="SEG-&lt;2&gt;">SEG-&lt;2&gt;</option>' in html
    assert '<option value="gcd.service_overdue" selected>Pump-out overdue</option>' in html

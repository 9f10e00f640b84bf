"""The agency-wide lists (fogkeeper/web/reports/lists.py): findings, invoices and enforcement
actions,
filtered, paginated, refused on a bad filter, and exported as shown."""

import csv
import io
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook

from fogkeeper.audit.models import AuditEvent
from fogkeeper.billing.services import fee_schedule_set, invoice_credit, invoice_void
from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.resweep import sweep_establishment
from tests.billing.records import TOWN_FEES, invoice, pay
from tests.compliance.records import make_pier_taqueria
from tests.records import d, make_establishment
from tests.web.enforcement import san_clemente_case, town_case
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


@pytest.fixture
def charlie(client, agencies):
    """The Town's auditor."""
    client.force_login(make_user("charlie", agencies[1], role="auditor"))
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


# -- invoices ---------------------------------------------------------------------------------


@pytest.fixture
def invoices(agencies):
    """The Town's invoices, swept on June 1, 2025: INV-1 unpaid past its 45 days (delinquent),
    INV-2 part paid, INV-3 paid, INV-4 voided, INV-5 just issued (due)."""
    _, town = agencies
    fee_schedule_set(agency=town, effective_on=d("2024-07-01"), items=TOWN_FEES)
    diner = make_establishment(town, code="T-1", name="Town Diner", opened_on="2020-01-01")
    cafe = make_establishment(town, code="T-2", name=FORMULA, opened_on="2020-01-01")
    late = invoice(diner, "INV-1", "2025-03-03")
    part = invoice(diner, "INV-2", "2025-05-01")
    pay(part, "100.00", "2025-05-10")
    pay(invoice(cafe, "INV-3", "2025-04-01"), "250.00", "2025-04-02")
    invoice_void(
        invoice=invoice(cafe, "INV-4", "2025-04-05"), on=d("2025-04-06"), reason="sent twice"
    )
    invoice(cafe, "INV-5", "2025-05-28", fees=["SPECIALTY"])
    for fse in (diner, cafe):
        sweep_establishment(fse, as_of=d("2025-06-01"))
    return late


def test_it_lists_the_invoices_with_their_state_in_words(charlie, invoices):
    response = charlie.get("/invoices/")
    assert response.status_code == 200
    rows = {i.code: (i.state_word, i.balance, i.due_on) for i in response.context["page"]}
    assert rows == {
        "INV-5": ("Due", Decimal("120.50"), d("2025-07-14")),
        "INV-2": ("Part paid", Decimal("150.00"), d("2025-06-16")),
        "INV-4": ("Void", Decimal("0.00"), d("2025-05-20")),
        "INV-3": ("Paid", Decimal("0.00"), d("2025-05-16")),
        "INV-1": ("Delinquent", Decimal("250.00"), d("2025-04-17")),
    }
    assert shown(response, "code") == ["INV-5", "INV-2", "INV-4", "INV-3", "INV-1"]
    html = response.content.decode()
    assert '<a href="/establishments/T-1/invoices/INV-1/">INV-1</a>' in html
    assert "Delinquent since 2025-04-18" in html and "10.02.360(A), (B)" in html
    assert "$250.00" in html


@pytest.mark.parametrize(
    "query, codes",
    [
        ("state=delinquent", ["INV-1"]),
        ("state=paid", ["INV-3"]),
        ("state=due", ["INV-5"]),
        ("issued_from=2025-04-01&issued_to=2025-05-01", ["INV-2", "INV-4", "INV-3"]),
        ("q=diner", ["INV-2", "INV-1"]),
        ("q=inv-3", ["INV-3"]),
    ],
)
def test_it_filters_invoices(charlie, invoices, query, codes):
    assert shown(charlie.get(f"/invoices/?{query}"), "code") == codes


@pytest.mark.parametrize(
    "query, field",
    [
        ("issued_from=2025-02-30", "issued_from"),
        ("issued_to=2026-13-01", "issued_to"),
        ("issued_from=2025-05-01&issued_to=2025-04-01", "issued_to"),
        ("state=overpaid", "state"),
    ],
)
def test_it_refuses_a_bad_invoice_filter_changing_nothing(charlie, invoices, query, field):
    audits = AuditEvent.objects.count()
    response = charlie.get(f"/invoices/?{query}")
    assert response.status_code == 400
    assert f'id="id_{field}_error"' in response.content.decode()
    assert shown(response) == []
    assert AuditEvent.objects.count() == audits


def test_it_never_lists_or_exports_another_agencys_invoices(alice, invoices):
    assert shown(alice.get("/invoices/")) == []
    assert "No invoice matches these filters." in alice.get("/invoices/").content.decode()
    assert csv_rows(alice.get("/invoices/?export=csv"))[1:] == []


def test_it_exports_the_delinquent_invoices_as_excel(charlie, invoices):
    response = charlie.get("/invoices/?state=delinquent&export=xlsx")
    assert "town-10-02-invoices.xlsx" in response["Content-Disposition"]
    rows = sheet_rows(response)
    assert rows[0] == [
        "Invoice",
        "Establishment code",
        "Establishment",
        "Kind",
        "Issued",
        "Due",
        "Amount",
        "Paid",
        "Credited or voided",
        "Balance",
        "State",
        "Delinquent since",
    ]
    (row,) = rows[1:]
    assert row[:4] == ["INV-1", "T-1", "Town Diner", "Fee"]
    assert [row[4].date(), row[5].date(), row[11].date()] == [
        d("2025-03-03"),
        d("2025-04-17"),
        d("2025-04-18"),
    ]
    assert row[6:11] == [250, 0, 0, 250, "Delinquent"]


def test_it_exports_invoices_as_csv_with_a_formula_looking_name_neutralised(charlie, invoices):
    rows = csv_rows(charlie.get("/invoices/?export=csv&q=inv-3"))
    assert rows[1][:3] == ["INV-3", "T-2", "'" + FORMULA]
    assert rows[1][6:11] == ["250.00", "250.00", "0.00", "0.00", "Paid"]


def test_a_credit_leaves_an_invoice_part_paid(charlie, invoices):
    invoice_credit(invoice=invoices, on=d("2025-06-02"), amount=Decimal("50.00"), reason="error")
    (row,) = charlie.get("/invoices/?q=inv-1").context["page"]
    assert (row.adjusted, row.balance) == (Decimal("50.00"), Decimal("200.00"))
    assert row.state_word == "Delinquent"  # the sweep still finds it unpaid past its deadline


# -- enforcement actions ----------------------------------------------------------------------


@pytest.fixture
def actions(agencies):
    sc, town = agencies
    san_clemente_case(make_pier_taqueria(sc))
    town_case(make_pier_taqueria(town, code="T-0042"))


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

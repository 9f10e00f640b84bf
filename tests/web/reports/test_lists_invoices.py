"""The invoices' list (/invoices/, fogkeeper/web/reports/lists.py): the invoices with their
state in words, filtered, refused on a bad filter, never another agency's, and exported as
shown.

The Town's invoices are built once for the module (a transaction rolled back when it ends,
their writes left to the sweeps that end the building); each test runs in a savepoint of it,
so what a test writes is undone after it, and is given its records read again."""

from decimal import Decimal

import pytest

from fogkeeper import reevaluation
from fogkeeper.audit.models import AuditEvent
from fogkeeper.billing.models import Invoice
from fogkeeper.billing.services import fee_schedule_set, invoice_credit, invoice_void
from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.registry.models import Agency
from tests import databases
from tests.billing.records import TOWN_FEES, invoice, pay
from tests.records import d, make_establishment
from tests.web.people import make_user, two_agencies
from tests.web.reports.test_lists import FORMULA, csv_rows, sheet_rows, shown

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """The Town's invoices, swept on June 1, 2025: INV-1 unpaid past its 45 days (delinquent),
    INV-2 part paid, INV-3 paid, INV-4 voided, INV-5 just issued (due). The ids of the two
    agencies and of INV-1."""
    with databases.rolled_back(django_db_blocker, as_committed=True):
        sc, town = two_agencies()
        with reevaluation.held():  # the sweeps evaluate every establishment written
            diner, cafe, late = town_invoices(town)
        for fse in (diner, cafe):
            sweep_establishment(fse, as_of=d("2025-06-01"))
        databases.check_constraints()
        yield sc.pk, town.pk, late.pk


def town_invoices(town):
    """The Town's fees, its Town Diner and its cafe (named as a formula) and their invoices:
    the diner, the cafe and INV-1."""
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
    return diner, cafe, late


@pytest.fixture
def agencies(built, db):
    """San Clemente and the Town, read again for this test."""
    return tuple(Agency.objects.get(pk=pk) for pk in built[:2])


@pytest.fixture
def invoices(built, db):
    """The Town's INV-1, read again for this test."""
    return Invoice.objects.get(pk=built[2])


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

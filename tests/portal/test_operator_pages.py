"""What an operator reads in its portal: its establishments only (ACCESS.md)."""

import pytest

from fogkeeper.billing.models import Invoice, InvoiceLine
from fogkeeper.enforcement.models import Letter
from fogkeeper.inspections.models import Inspection
from fogkeeper.registry.models import Operator
from tests.records import d
from tests.web.people import make_user

from .conftest import PIER, member, notice

pytestmark = pytest.mark.django_db


def test_it_lists_only_the_establishments_the_operator_runs(as_olive):
    html = as_olive.get("/portal/operator/").content.decode()
    assert "Pier Taqueria" in html and "FSE-0042" in html
    assert "Harbor Grill" not in html and "Desert Diner" not in html


def test_it_sends_the_operator_from_the_portal_home_to_its_portal(as_olive):
    assert as_olive.get("/portal/").url == "/portal/operator/"


def test_it_shows_the_open_findings_with_the_packs_titles_citations_and_dates(as_olive):
    html = as_olive.get(PIER).content.decode()
    assert "Permit ended by a new Operator" in html  # the pack's title of permit.new_operator
    assert "13.30.050(A), (E)" in html
    assert '<td class="date">2025-02-01</td>' in html  # since the new operator took over


def test_it_shows_what_comes_due_with_the_packs_titles_and_citations(as_olive):
    html = as_olive.get(PIER).content.decode()
    assert "BMP refresher training of Ana Ruiz" in html
    assert "BMP refresher training overdue" in html and "13.30.050(H)(3)(a)" in html


def test_it_shows_devices_pump_outs_with_depths_and_trainings(as_olive):
    html = as_olive.get(PIER).content.decode()
    assert "GI-1" in html and "GT-2" in html
    assert "FSE-0042-M1" in html and "4.00" in html and "6.50" in html
    assert "Ana Ruiz, Luis Soto (not signed)" in html


def test_it_shows_inspection_results_but_not_the_inspectors_notes(as_olive):
    Inspection.objects.filter(code="I-55").update(notes="Manager evasive; recheck in a week")
    html = as_olive.get(PIER).content.decode()
    assert "2025-02-11: inspection I-55" in html
    assert "items found not compliant" in html
    assert "Manager evasive" not in html


def test_it_shows_the_invoices_with_their_balance(as_olive, world):
    invoice = Invoice.objects.create(
        agency=world.sc,
        establishment=world.pier,
        code="INV-7",
        kind="fee",
        noticed_on=d("2025-05-01"),
        description="Annual permit fee",
    )
    InvoiceLine.objects.create(invoice=invoice, position=1, description="Fee", amount=250)
    html = as_olive.get(PIER).content.decode()
    assert "INV-7" in html and "Annual permit fee" in html and "$250.00" in html


def test_it_answers_404_for_another_operators_establishment(as_olive):
    assert as_olive.get("/portal/operator/FSE-2/").status_code == 404
    assert as_olive.get("/portal/operator/FSE-2/training/").status_code == 404


def test_it_answers_404_for_another_agencys_establishment(as_olive):
    assert as_olive.get("/portal/operator/T-1/").status_code == 404
    assert as_olive.get("/portal/operator/T-1/yellow-grease/").status_code == 404


def test_it_answers_404_to_the_former_operator(client, world):
    former = Operator.objects.get(agency=world.sc, name="Pier Foods LLC")
    client.force_login(member("paul", world.sc, "operator", operator=former))
    assert client.get(PIER).status_code == 404


def test_it_answers_404_to_staff(client, world):
    client.force_login(make_user("ines", world.sc))
    assert client.get("/portal/operator/").status_code == 404


def test_it_downloads_a_letter_sent_to_the_establishment_byte_for_byte(as_olive, world, letters):
    notice(world.pier)
    letter = Letter.objects.get()
    response = as_olive.get(f"{PIER}letters/{letter.pk}.pdf")
    assert response.content == b"%PDF-1.7 notice of noncompliance"
    assert response["Content-Type"] == "application/pdf"


def test_it_lists_the_letters_sent_to_the_establishment(as_olive, world, letters):
    notice(world.pier)
    html = as_olive.get(PIER).content.decode()
    assert "Notice of Non-Compliance NNC-1 (PDF)" in html


def test_it_answers_404_for_another_establishments_letter(as_olive, world, letters):
    notice(world.grill)
    letter = Letter.objects.get()
    assert as_olive.get(f"{PIER}letters/{letter.pk}.pdf").status_code == 404
    assert as_olive.get(f"/portal/operator/FSE-2/letters/{letter.pk}.pdf").status_code == 404


def test_it_refuses_to_post_to_a_read_page(as_olive):
    assert as_olive.post(PIER).status_code == 405

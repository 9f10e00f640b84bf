"""The ordinances' remaining acts and court steps (issue 42), each taken from the case page as
the workbench offers it: the Town's criminal citation, petitions for an injunction and to
confirm a penalty order, administrative citation, termination of sewer service and order after
an overflow (10.02.170, .290, .310, .320, .330(A), (G), .350); San Clemente's appeal of an
emergency decision to the City Manager and the City Manager's decision (13.30.080(H)(4)). A
step out of the law's order is refused with the law's words and changes nothing.

The agencies and their cases are built once for the module (a transaction rolled back when
it ends); each test runs in a savepoint of it."""

from __future__ import annotations

import pytest

from fogkeeper import reevaluation
from fogkeeper.billing.models import Invoice
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import EnforcementAction
from fogkeeper.enforcement.services import action_take
from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from tests import databases
from tests.compliance.records import make_pier_taqueria
from tests.enforcement.steps import emergency_heard
from tests.letters.test_letters import text_of
from tests.records import d
from tests.web.enforcement import san_clemente_case, town_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

SC_CASE, TOWN_CASE = "/cases/FSE-0042/EC-7", "/cases/T-0042/EC-1"


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    with databases.rolled_back(django_db_blocker, as_committed=True):
        with reevaluation.held():
            sc, town = two_agencies()
            san_clemente_case(make_pier_taqueria(sc))
            town_case(make_pier_taqueria(town, code="T-0042"))
        databases.check_constraints()
        yield {"sc": sc.pk, "town": town.pk}


@pytest.fixture
def world(built, db):
    return {k: Agency.objects.get(pk=pk) for k, pk in built.items()}


def manager(client, agency):
    client.force_login(make_user(f"manager-{agency.code}", agency, role="manager"))
    return client


def letter_of(code: str) -> str:
    action = EnforcementAction.objects.get(code=code)
    pdf = bytes(action.letters.get().pdf)
    assert pdf.startswith(b"%PDF")
    return text_of(pdf)


def count() -> int:
    return EnforcementAction.objects.count()


# San Clemente: the appeal of an emergency decision to the City Manager (13.30.080(H)(4))


def emergency_decided(world, client) -> None:
    """ES-1 heard on June 10, and the Utilities Manager's decision ED-1 continuing the
    discontinuance delivered that day, taken from the page."""
    case = FoodServiceEstablishment.objects.get(code="FSE-0042").cases.get(code="EC-7")
    emergency_heard(case, "2025-06-09T08:00:00", "2025-06-10T08:00:00")
    response = client.post(
        f"{SC_CASE}/act/emergency_decision/?refers_to=ES-1",
        {
            "code": "ED-1",
            "delivered_on": "2025-06-10",
            "orders": "discontinuance_stands",
            "delivery": "personal",
        },
    )
    assert response.status_code == 302, _errors(response)


def test_the_city_managers_decision_is_refused_before_an_appeal_with_the_laws_words(client, world):
    manager(client, world["sc"])
    emergency_decided(world, client)
    before = count()
    response = client.post(
        f"{SC_CASE}/act/city_manager_decision/?refers_to=ED-1",
        {"code": "CM-1", "delivered_on": "2025-06-12", "delivery": "personal"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "13.30.080(H)(4)" in html
    assert "an appeal to the City Manager, filed in time" in html
    assert count() == before


def test_an_appeal_to_the_city_manager_is_heard_and_decided_from_the_case_page(client, world):
    manager(client, world["sc"])
    emergency_decided(world, client)
    page = client.get(f"{SC_CASE}/?as_of=2025-06-11").content.decode()
    assert "Appeal ED-1 to the City Manager" in page
    response = client.post(
        f"{SC_CASE}/appeal/?refers_to=ED-1&to=city_manager",
        {
            "code": "AP-1",
            "filed_on": "2025-06-11",
            "appellant": "Pier Foods LLC",
            "grounds": "The lateral was cleared the same night.",
        },
    )
    assert response.status_code == 302
    assert EnforcementAction.objects.get(code="ED-1").effective_fields()["appealed_on"]
    # the Utilities Manager presents the basis of the decision within 4 days of the appeal
    sweep_agency(world["sc"], as_of=d("2025-06-11"))
    calendar = client.get("/calendar/?as_of=2025-06-11").context["cal"].entries
    entries = {(e.action, e.name): e for e in calendar}
    presentation = entries[("ED-1", "city_manager_presentation")]
    assert (str(presentation.day), presentation.citation) == ("2025-06-15", "13.30.080(H)(4)")

    page = client.get(f"{SC_CASE}/?as_of=2025-06-13").content.decode()
    assert "Record that the hearing before the City Manager concluded (ED-1)" in page
    response = client.post(
        f"{SC_CASE}/fact/?refers_to=ED-1&field=city_manager_hearing_concluded_on",
        {"value": "2025-06-13"},
    )
    assert response.status_code == 302
    sweep_agency(world["sc"], as_of=d("2025-06-13"))
    calendar = client.get("/calendar/?as_of=2025-06-13").context["cal"].entries
    decision_due = {(e.action, e.name): e.day for e in calendar}
    assert str(decision_due[("ED-1", "city_manager_decision")]) == "2025-06-15"  # 2 days

    page = client.get(f"{SC_CASE}/?as_of=2025-06-14").content.decode()
    assert "Decision of the City Manager on AP-1" in page
    response = client.post(
        f"{SC_CASE}/act/city_manager_decision/?refers_to=AP-1",
        {
            "code": "CM-1",
            "delivered_on": "2025-06-14",
            "orders": "discontinuance_stands",
            "decision": "The discontinuance stands until the lateral is repaired.",
            "delivery": "personal",
        },
    )
    assert response.status_code == 302
    decision = EnforcementAction.objects.get(code="CM-1")
    assert (decision.level, decision.refers_to.code) == ("city_manager", "AP-1")
    assert EnforcementAction.objects.get(code="ED-1").effective_fields()["appeal_decided_on"]
    text = letter_of("CM-1")
    assert "13.30.080(H)(4)" in text and "13.30.090" in text
    assert "Pier Taqueria" in text


def test_the_lateral_repaired_ends_the_discontinuance_on_record(client, world):
    manager(client, world["sc"])
    emergency_decided(world, client)
    page = client.get(f"{SC_CASE}/?as_of=2025-06-12").content.decode()
    assert "Record the repair of the sewer lateral (ES-1)" in page
    response = client.post(
        f"{SC_CASE}/fact/?refers_to=ES-1&field=lateral_repaired_on", {"value": "2025-06-12"}
    )
    assert response.status_code == 302
    fields = EnforcementAction.objects.get(code="ES-1").effective_fields()
    assert fields["lateral_repaired_on"] == "2025-06-12"


# The Town's court steps (10.02.310, .330(G), .350)


def test_a_criminal_citation_is_recorded_with_its_court_and_its_outcome(client, world):
    manager(client, world["town"])
    page = client.get(f"{TOWN_CASE}/?as_of=2025-06-06").content.decode()
    assert f"{TOWN_CASE}/act/criminal_citation/" in page
    form = client.get(f"{TOWN_CASE}/act/criminal_citation/").content.decode()
    assert "10.02.310(A), (D)" in form
    response = client.post(
        f"{TOWN_CASE}/act/criminal_citation/",
        {
            "code": "CC-1",
            "issued_on": "2025-06-02",
            "court": "Superior Court, County of Riverside",
            "court_case_number": "25-CR-0042",
            "days_charged": "3",
            "charges": "Discharging FOG without a FOG Permit, May 28 to 30.",
        },
    )
    assert response.status_code == 302, _errors(response)
    page = client.get(f"{TOWN_CASE}/?as_of=2025-06-06").content.decode()
    assert "Record the outcome in court (CC-1)" in page
    response = client.post(
        f"{TOWN_CASE}/fact/?refers_to=CC-1&field=court_outcome",
        {"value": "Pleaded guilty; fined $500 for each of the 3 days."},
    )
    assert response.status_code == 302
    assert "<dt>In</dt><dd>Superior Court" in page  # taken in the court, not by it
    fields = EnforcementAction.objects.get(code="CC-1").effective_fields()
    assert fields["court_case_number"] == "25-CR-0042" and fields["days_charged"] == 3
    assert fields["court_outcome"].startswith("Pleaded guilty")


def test_a_petition_for_an_injunction_records_the_injunction_issued(client, world):
    manager(client, world["town"])
    response = client.post(
        f"{TOWN_CASE}/act/injunction_petition/",
        {
            "code": "INJ-1",
            "filed_on": "2025-06-02",
            "court": "Superior Court",
            "court_case_number": "25-CV-7",
            "relief": "preliminary",
        },
    )
    assert response.status_code == 302, _errors(response)
    response = client.post(
        f"{TOWN_CASE}/fact/?refers_to=INJ-1&field=injunction_issued_on", {"value": "2025-06-05"}
    )
    assert response.status_code == 302
    petition = EnforcementAction.objects.get(code="INJ-1")
    assert petition.cites == "10.02.350; 10.02.310(E)"
    assert petition.effective_fields()["injunction_issued_on"] == "2025-06-05"


def test_a_petition_to_confirm_needs_a_penalty_order_and_then_names_it(client, world):
    manager(client, world["town"])
    before = count()
    response = client.post(
        f"{TOWN_CASE}/act/confirmation_petition/", {"code": "PC-1", "filed_on": "2025-06-02"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "10.02.330(G)" in html and "an order assessing administrative civil penalties" in html
    assert count() == before
    case = FoodServiceEstablishment.objects.get(code="T-0042").cases.get(code="EC-1")
    action_take(
        case=case,
        type="penalty_order",
        code="PO-1",
        refers_to=case.actions.get(code="H-1"),
        fields={
            "issued_by": "hearing_officer",
            "issued_on": d("2025-03-03"),
            "served_on": d("2025-03-04"),
            "amount": 1000,
            "class": "records",
            "days": 1,
        },
    )
    page = client.get(f"{TOWN_CASE}/?as_of=2025-06-06").content.decode()
    assert "Petition to the Superior Court to confirm a penalty order on PO-1" in page
    response = client.post(
        f"{TOWN_CASE}/act/confirmation_petition/?refers_to=PO-1",
        {"code": "PC-1", "filed_on": "2025-06-02", "court_case_number": "25-CV-8"},
    )
    assert response.status_code == 302, _errors(response)
    assert EnforcementAction.objects.get(code="PC-1").refers_to.code == "PO-1"


# The Town's other acts (10.02.170(A), .290, .320, .330(A))


def test_sewer_service_is_terminated_only_pursuant_to_an_order_and_its_costs_are_stated(
    client, world
):
    manager(client, world["town"])
    before = count()
    post = {
        "code": "ST-1",
        "terminated_on": "2025-06-03",
        "disconnection_cost": "640.00",
        "reinstatement_cost": "310.00",
        "delivery": "personal",
    }
    response = client.post(f"{TOWN_CASE}/act/service_termination/?refers_to=AC-1", post)
    assert response.status_code == 400
    assert "10.02.290(A)" in response.content.decode()
    assert count() == before
    response = client.post(f"{TOWN_CASE}/act/service_termination/?refers_to=HD-1", post)
    assert response.status_code == 302, _errors(response)
    text = letter_of("ST-1")
    assert "10.02.290(B)" in text and "$640" in text and "$310" in text


def test_an_administrative_citation_is_issued_apart_from_the_complaint(client, world):
    manager(client, world["town"])
    response = client.post(
        f"{TOWN_CASE}/act/administrative_citation/",
        {
            "code": "CIT-1",
            "issued_on": "2025-06-02",
            "cited_for": "schedule",
            "amount": "900.00",
            "days": "3",
            "delivery": "personal",
        },
    )
    assert response.status_code == 302, _errors(response)
    text = letter_of("CIT-1")
    assert "10.02.320" in text and "Chapter 1.01" in text and "$900" in text


def test_an_order_after_an_overflow_closes_operations_and_calls_a_cleanup_contractor(client, world):
    manager(client, world["town"])
    response = client.post(
        f"{TOWN_CASE}/act/overflow_order/",
        {
            "code": "OO-1",
            "ordered_on": "2025-06-02",
            "closure": "on",
            "cleanup_contractor": "on",
            "operations_closed": "The dish line and the fryers.",
            "delivery": "personal",
        },
    )
    assert response.status_code == 302, _errors(response)
    text = letter_of("OO-1")
    assert "10.02.170(A)(2)" in text and "10.02.170(A)(3)" in text
    assert "The dish line and the fryers." in text


def _errors(response) -> str:
    """The form's errors, in words, for a failed assertion."""
    import re

    html = response.content.decode()
    found = re.findall(r'(?s)class="[^"]*(?:error|alert)[^"]*"[^>]*>(.*?)</', html)
    return " | ".join(" ".join(re.sub(r"<[^>]+>", " ", m).split()) for m in found)


def test_the_costs_of_terminating_and_reinstating_service_are_invoiced_from_the_case(client, world):
    manager(client, world["town"])
    client.post(
        f"{TOWN_CASE}/act/service_termination/?refers_to=HD-1",
        {
            "code": "ST-1",
            "terminated_on": "2025-06-03",
            "disconnection_cost": "640.00",
            "reinstatement_cost": "310.00",
            "delivery": "personal",
        },
    )
    page = client.get(f"{TOWN_CASE}/?as_of=2025-06-06").content.decode()
    assert "Invoice the costs of ST-1 (10.02.290(B))" in page
    form = client.get("/establishments/T-0042/invoices/new/?action=ST-1").context["form"]
    assert (form.initial["kind"], form.initial["enforcement_action"]) == ("action_costs", "ST-1")
    response = client.post(
        "/establishments/T-0042/invoices/new/",
        {
            "code": "INV-77",
            "kind": "action_costs",
            "noticed_on": "2025-06-06",
            "enforcement_action": "ST-1",
            "rows": "2",
            **{k: str(v) for k, v in form.initial.items() if k.startswith("line_")},
        },
    )
    assert response.status_code == 302, _errors(response)
    invoice = Invoice.objects.get(code="INV-77")
    lines = [(str(li.amount), li.citation) for li in invoice.lines.order_by("position")]
    assert lines == [("640.00", "10.02.290(B)"), ("310.00", "10.02.290(B)")]
    page = client.get(f"{TOWN_CASE}/?as_of=2025-06-06").content.decode()
    assert "Invoice the costs of ST-1" not in page

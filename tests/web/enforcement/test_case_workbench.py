"""The case workbench: staff start a case from findings and take each next step from the
case page, by role, each through the services; a refused step shows its cited refusal and
changes nothing.

The agencies, Pier Taqueria and its case EC-7 are built once for the module (a transaction
rolled back when it ends, their writes left to the sweeps that end the building); each test
runs in a savepoint of it, so what it posts is undone after it, and is given them read
again."""

from __future__ import annotations

import pytest

from fogkeeper import reevaluation
from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import EnforcementAction, EnforcementCase, Letter
from fogkeeper.enforcement.services import case_open
from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from fogkeeper.web.common import policy
from tests import databases
from tests.compliance.records import make_pier_taqueria
from tests.enforcement.steps import heard_complaint
from tests.letters.test_letters import text_of
from tests.records import d, make_agency, make_establishment
from tests.web.enforcement import san_clemente_case, town_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

AS_OF = "2025-06-06"


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """San Clemente's case EC-7 of Pier Taqueria and the Town's EC-1, swept on June 6: the
    ids of the agencies, of Pier Taqueria and of its case."""
    with databases.rolled_back(django_db_blocker, as_committed=True):
        with reevaluation.held():  # the sweeps evaluate every establishment written
            sc, town = two_agencies()
            pier = make_pier_taqueria(sc)
            case = san_clemente_case(pier)
            town_case(make_pier_taqueria(town, code="T-0042"))
        sweep_agency(sc, as_of=d(AS_OF))
        sweep_agency(town, as_of=d(AS_OF))
        databases.check_constraints()
        yield {"sc": sc.pk, "town": town.pk, "pier": pier.pk, "case": case.pk}


@pytest.fixture
def world(built, db):
    """The module's records read again for this test."""
    return {
        "sc": Agency.objects.get(pk=built["sc"]),
        "town": Agency.objects.get(pk=built["town"]),
        "pier": FoodServiceEstablishment.objects.get(pk=built["pier"]),
        "case": EnforcementCase.objects.get(pk=built["case"]),
    }


def signed_in(client, agency, role):
    client.force_login(make_user(f"{role}-{agency.code}", agency, role=role))
    return client


def counts():
    return (EnforcementAction.objects.count(), Letter.objects.count(), AuditEvent.objects.count())


def test_the_case_page_offers_the_next_steps_of_the_sequence_for_the_role(client, world):
    signed_in(client, world["sc"], "manager")
    html = client.get(f"/cases/FSE-0042/EC-7/?as_of={AS_OF}").content.decode()
    assert "Next steps" in html
    # the manager's decision MD-1 may be taken to the City Council by its deadline
    assert "Appeal MD-1 to the City Council" in html
    assert "/cases/FSE-0042/EC-7/act/notice_of_noncompliance/" in html
    client.logout()
    signed_in(client, world["sc"], "auditor")
    html = client.get(f"/cases/FSE-0042/EC-7/?as_of={AS_OF}").content.decode()
    assert "No step is yours to take on this case today." in html


def test_an_inspector_issues_a_notice_with_its_letter_and_the_page_shows_the_new_deadline(
    client, world
):
    signed_in(client, world["sc"], "inspector")
    url = f"/cases/FSE-0042/EC-7/act/notice_of_noncompliance/?as_of={AS_OF}"
    form = client.get(url)
    assert form.status_code == 200
    assert form.context["form"].initial.get("code") or form.context["form"]["code"].initial
    # the correct-by date defaults to the pack's correction period (30 days)
    assert str(form.context["form"]["correct_by"].initial) == "2025-07-06"
    before = counts()
    response = client.post(
        url,
        {
            "code": "NNC-9",
            "delivered_on": "2025-06-06",
            "correct_by": "2025-07-06",
            "corrective_action": "Pump out the trap GT-2 and keep its manifest.",
            "violation": "V-1",
            "delivery": "mail",
            "certified_mail_number": "7019 1",
        },
        follow=True,
    )
    assert response.status_code == 200
    notice = EnforcementAction.objects.get(code="NNC-9")
    assert notice.fields["corrective_action"].startswith("Pump out")
    assert notice.taken_by.username == "inspector-san-clemente"
    after = counts()
    assert after[0] == before[0] + 1 and after[1] == before[1] + 1 and after[2] > before[2]
    html = response.content.decode()
    assert "Notice of Non-Compliance NNC-9 taken" in html
    assert "appeal by 2025-06-16" in html  # 10 days, 13.30.080(D)(1)


def test_a_refused_step_shows_its_cited_refusal_and_changes_nothing(client, world):
    signed_in(client, world["sc"], "manager")
    before = counts()
    response = client.post(
        f"/cases/FSE-0042/EC-7/act/penalty_order/?as_of={AS_OF}",
        {
            "code": "PO-1",
            "issued_by": "manager",
            "issued_on": "2025-06-06",
            "served_on": "2025-06-06",
            "amount": "999999",
            "class": "records",
            "days": "2",
            "delivery": "personal",
        },
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "13.30.080(I)(4)(c)" in html and "may not exceed" in html
    assert "Nothing was recorded." in html
    assert counts() == before


def test_a_hearing_outside_its_window_is_refused_with_the_window_shown(client, world):
    signed_in(client, world["sc"], "manager")
    client.post(
        f"/cases/FSE-0042/EC-7/act/revocation_notice/?as_of={AS_OF}",
        {
            "code": "RN-1",
            "mailed_on": "2025-06-06",
            "delivery": "personal",
        },
    )
    url = "/cases/FSE-0042/EC-7/hearing/?refers_to=RN-1"
    page = client.get(url).content.decode()
    assert "not before 2025-06-16" in page  # ten days' notice, 13.30.080(G)(2)
    before = counts()
    response = client.post(
        url,
        {
            "code": "H-2",
            "hearing_on": "2025-06-10",
            "place": "City Hall",
            "noticed_on": "2025-06-06",
            "delivery": "personal",
        },
    )
    assert response.status_code == 400
    assert "the hearing may not be held before 2025-06-16" in response.content.decode()
    assert counts() == before


@pytest.mark.parametrize("agency", ["sc", "town"])
def test_every_action_of_the_pack_is_offered_as_a_form_to_the_roles_that_take_it(
    client, world, agency
):
    fse, case = ("FSE-0042", "EC-7") if agency == "sc" else ("T-0042", "EC-1")
    pack = world[agency].get_pack()
    for role in ("manager", "inspector", "clerk", "auditor"):
        client.force_login(make_user(f"{role}-{agency}", world[agency], role=role))
        for type in pack.actions:
            if type == "invoice":
                continue
            response = client.get(f"/cases/{fse}/{case}/act/{type}/")
            may = policy.WRITES[role] >= {policy.action_kind(type)}
            assert response.status_code == (200 if may else 403), (role, type)
        client.logout()


def test_another_agencys_case_answers_404_for_every_step(client, world):
    signed_in(client, world["town"], "manager")
    for url in (
        "act/notice_of_noncompliance/",
        "hearing/?refers_to=SN-1",
        "appeal/?refers_to=MD-1",
        "fact/?refers_to=NNC-1&field=corrected_on",
        "judgment/",
    ):
        assert client.get(f"/cases/FSE-0042/EC-7/{url}").status_code == 404
        assert client.post(f"/cases/FSE-0042/EC-7/{url}", {}).status_code == 404


def test_an_appeal_after_its_deadline_is_refused_citing_it(client, world):
    signed_in(client, world["sc"], "clerk")
    before = counts()
    response = client.post(
        "/cases/FSE-0042/EC-7/appeal/?refers_to=MD-1&to=council",
        {
            "code": "AP-1",
            "filed_on": "2025-07-30",
        },
    )
    assert response.status_code == 400
    assert "13.30.080(D)(2)" in response.content.decode()
    assert counts() == before


def test_staff_open_a_case_from_open_findings_and_add_findings_to_it(client, world):
    signed_in(client, world["sc"], "inspector")
    findings = list(Finding.objects.filter(establishment=world["pier"], open=True)[:2])
    assert findings
    response = client.post(
        f"/establishments/FSE-0042/cases/new/?as_of={AS_OF}",
        {"findings": [str(findings[0].pk)], "case": "", "opened_on": AS_OF},
    )
    case = EnforcementCase.objects.exclude(code="EC-7").get(establishment=world["pier"])
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/{case.code}/")
    assert list(case.violations.values_list("rule", flat=True)) == [findings[0].rule]
    again = client.post(
        "/establishments/FSE-0042/cases/new/",
        {"findings": [str(findings[0].pk)], "case": case.code, "opened_on": AS_OF},
    )
    assert again.status_code == 400
    assert f"is already in {case.code}" in again.content.decode()
    assert case.violations.count() == 1


def test_a_clerk_may_not_open_a_case(client, world):
    signed_in(client, world["sc"], "clerk")
    assert client.get("/establishments/FSE-0042/cases/new/").status_code == 403


def test_an_out_of_sequence_step_forced_from_a_stale_page_is_refused_citing_why(client, world):
    signed_in(client, world["sc"], "clerk")
    before = counts()
    # a final decision decides an appeal to the City Council; NNC-1 is not one
    response = client.post(
        "/cases/FSE-0042/EC-7/act/final_decision/?refers_to=NNC-1",
        {
            "code": "FD-1",
            "final_on": "2025-06-06",
            "delivery": "personal",
        },
    )
    assert response.status_code == 400
    assert "Out of sequence" in response.content.decode()
    assert counts() == before


def test_no_compliance_schedule_while_money_is_owed(client, world):
    from decimal import Decimal

    from fogkeeper.billing.services import invoice_issue

    invoice_issue(
        establishment=world["pier"],
        code="INV-1",
        kind="fee",
        noticed_on=d("2025-06-01"),
        lines=[{"description": "Inspection fee", "amount": Decimal("250.00")}],
    )
    signed_in(client, world["sc"], "manager")
    before = counts()
    response = client.post(
        "/cases/FSE-0042/EC-7/act/compliance_schedule/",
        {
            "code": "CS-1",
            "entered_on": "2025-06-06",
            "milestones": "M-1 2025-07-01 Pump out GT-2",
            "delivery": "personal",
        },
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "13.30.080(F)(2)" in html and "no compliance schedule while $250.00 is owed" in html
    assert counts() == before


def test_a_letter_is_previewed_before_it_is_issued_and_the_preview_is_not_kept(client, world):
    signed_in(client, world["sc"], "inspector")
    before = counts()
    response = client.post(
        "/cases/FSE-0042/EC-7/act/notice_of_noncompliance/",
        {
            "code": "NNC-9",
            "delivered_on": "2025-06-06",
            "correct_by": "2025-07-06",
            "delivery": "personal",
            "preview": "1",
        },
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert counts() == before


def test_an_emergency_suspension_shows_its_hour_based_hearing_deadline(client, world):
    signed_in(client, world["sc"], "manager")
    response = client.post(
        "/cases/FSE-0042/EC-7/act/emergency_suspension/",
        {
            "code": "ES-1",
            "ordered_at": "2025-06-06T10:00",
            "reasons": "Grease overflowing to the street.",
        },
        follow=True,
    )
    html = response.content.decode()
    assert "Emergency suspension (water service discontinued) ES-1 taken" in html
    assert "hearing by 2025-06-08 10:00" in html  # within 48 hours, 13.30.080(H)(3)


def test_a_milestone_met_and_a_court_judgment_are_recorded_from_the_pages(client, world):
    signed_in(client, world["sc"], "manager")
    client.post(
        "/cases/FSE-0042/EC-7/act/compliance_schedule/",
        {
            "code": "CS-1",
            "entered_on": "2025-06-06",
            "milestones": "M-1 2025-07-01 Pump out GT-2",
            "delivery": "personal",
        },
    )
    response = client.post(
        "/cases/FSE-0042/EC-7/fact/?refers_to=CS-1&field=milestones.M-1.met_on",
        {"value": "2025-06-30"},
    )
    assert response.status_code == 302
    schedule = EnforcementAction.objects.get(code="CS-1")
    assert schedule.effective_fields()["milestones"][0]["met_on"] == "2025-06-30"
    response = client.post(
        "/cases/FSE-0042/EC-7/judgment/",
        {
            "code": "CJ-1",
            "entered_on": "2025-09-01",
            "violation": "V-1",
            "amount": "5000",
            "quantity": "1",
            "penalty_class": "judicial",
        },
    )
    assert response.status_code == 302
    judgment = EnforcementAction.objects.get(code="CJ-1")
    assert judgment.type == "court_judgment" and judgment.fields["days"] == 1


def test_the_judgment_form_names_a_courts_penalty_class_as_the_pack_describes_it(client, world):
    signed_in(client, world["sc"], "manager")
    html = client.get("/cases/FSE-0042/EC-7/judgment/").content.decode()
    assert ">Civil penalty a court may impose (counted in days)</option>" in html
    assert ">judicial" not in html


def test_a_penalty_order_served_after_it_was_issued_gets_its_final_and_lien_dates(
    world, monkeypatch
):
    """The engine ignores an act dated after its `as_of`: the order's deadlines for its
    letter are computed on the day it was served, not the day it was issued."""
    from decimal import Decimal

    from fogkeeper.enforcement import letters
    from fogkeeper.enforcement.services import action_take

    given = []

    def render(action, deadlines, signer=None):
        given.extend(deadlines)
        return b"%PDF-1.7 test"

    complaint = heard_complaint(world["case"], served_on="2025-05-01")
    monkeypatch.setattr(letters, "render_action_letter", render)
    action_take(
        case=world["case"],
        type="penalty_order",
        code="PO-1",
        refers_to=complaint,
        fields={
            "issued_by": "manager",
            "issued_on": d("2025-06-02"),
            "served_on": d("2025-06-04"),
            "amount": Decimal("1000"),
            "class": "records",
            "days": 1,
        },
        delivery="personal",
    )
    assert {(d.name, str(d.date)[:10]) for d in given} >= {
        ("appeal", "2025-06-16"),  # 10 days from service, rolled past the weekend
        ("final", "2025-06-15"),  # 11 days from service, 13.30.080(I)(6)
    }


def test_the_emergency_hearing_concluded_is_recorded_with_its_hour(client, world):
    signed_in(client, world["sc"], "manager")
    client.post(
        "/cases/FSE-0042/EC-7/act/emergency_suspension/",
        {
            "code": "ES-1",
            "ordered_at": "2025-06-06T10:00",
        },
    )
    html = client.get("/cases/FSE-0042/EC-7/?as_of=2025-06-06").content.decode()
    assert "Record that the emergency hearing concluded (ES-1)" in html
    response = client.post(
        "/cases/FSE-0042/EC-7/fact/?refers_to=ES-1&field=hearing_concluded_at",
        {"value": "2025-06-07T15:30"},
        follow=True,
    )
    assert "decision by 2025-06-08 15:30" in response.content.decode()  # 24 hours, (H)(3)


def test_the_bulk_notice_is_sent_by_the_role_its_first_notice_belongs_to(client, world):
    """San Clemente's inspector sends Notices of Non-Compliance; the Town's first notice is
    an administrative complaint, the FOG Manager's (10.02.330(A))."""
    signed_in(client, world["sc"], "inspector")
    page = client.get("/enforcement/bulk-notice/?rule=gcd.service_overdue")
    assert page.status_code == 200
    assert "FSE-0042" in page.content.decode()
    assert "/enforcement/bulk-notice/?rule=" in client.get("/dashboard/").content.decode()
    client.logout()
    signed_in(client, world["town"], "inspector")
    assert client.get("/enforcement/bulk-notice/").status_code == 403
    assert "/enforcement/bulk-notice/" not in client.get("/dashboard/").content.decode()
    client.logout()
    signed_in(client, world["town"], "manager")
    page = client.get("/enforcement/bulk-notice/").content.decode()
    assert "Send the Administrative complaint to many establishments" in page


def test_the_operators_answer_shows_on_the_case_page_under_the_action_it_answers(client, world):
    from fogkeeper.enforcement.services import notice_answer

    notice = EnforcementAction.objects.get(code="NNC-1")
    notice_answer(
        action=notice,
        text="The trap was pumped on March 20 by Coastal Pumping.",
        answered_on=d("2025-03-21"),
    )
    signed_in(client, world["sc"], "clerk")
    html = client.get(f"/cases/FSE-0042/EC-7/?as_of={AS_OF}").content.decode()
    item = html.split('id="action-NNC-1"', 1)[1].split('id="action-', 1)[0]
    assert "The trap was pumped on March 20 by Coastal Pumping." in item
    assert "2025-03-21" in item


def test_an_aurora_notice_offers_no_correction_date_and_previews_the_ordinances(client):
    aurora = make_agency("us-oh-aurora", code="aurora")
    case_open(
        establishment=make_establishment(aurora, code="AUR-1"),
        code="EC-1",
        opened_on=d("2026-12-01"),
    )
    signed_in(client, aurora, "manager")
    url = "/cases/AUR-1/EC-1/act/notice_of_violation/?as_of=2026-12-04"

    assert "correct_by" not in client.get(url).context["form"].fields
    response = client.post(
        url,
        {
            "code": "NOV-1",
            "delivered_on": "2026-12-04",
            "delivery": "personal",
            "preview": "1",
        },
    )

    text = text_of(response.content)  # 15 days: Saturday the 19th, rolled (922.22(b))
    assert "Correct by December 21, 2026" in text and "December 19" not in text

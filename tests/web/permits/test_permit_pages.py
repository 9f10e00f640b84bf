from datetime import date

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.permits.models import Permit, PermitApplication, PermitModification, PlanReview
from fogkeeper.permits.services import permit_application_submit
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_establishment, make_permit
from tests.web.enforcement import san_clemente_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture
def sc():
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    make_establishment(town, code="T-1", name="Town Diner")
    return sc


@pytest.fixture
def manager(client, sc):
    user = make_user("mia", sc, role="manager")
    client.force_login(user)
    return user


def apply(fse, **kw):
    fields = {
        "establishment": fse,
        "submitted_on": date(2025, 6, 1),
        "applicant_name": "Harbor Eats Inc",
        "applicant_address": "1 Pier",
    }
    return permit_application_submit(**{**fields, **kw})


def test_it_lists_a_waiting_application_with_what_is_missing_cited(client, manager, sc):
    apply(sc.establishments.get(code="FSE-0042"))
    html = client.get("/permits/applications/").content.decode()
    assert "Waiting" in html and "Harbor Eats Inc" in html
    assert "13.30.080(H)(1)" in html  # the emergency contact, left empty


def test_the_nav_shows_how_many_applications_wait(client, manager, sc):
    apply(sc.establishments.get(code="FSE-0042"))
    assert "1 waiting" in client.get("/permits/").content.decode()


COMPLETE = {"emergency_contact_name": "Rosa Diaz", "emergency_contact_phone": "949-555-0101"}
APPROVE = {
    "decision": "approve",
    "approve-number": "P3",
    "approve-issued_on": "2025-06-15",
    "approve-expires_on": "2030-06-14",
}


def test_approving_issues_the_permit_with_its_frequency(client, manager, sc):
    application = apply(sc.establishments.get(code="FSE-0042"), **COMPLETE)
    data = {
        "decision": "approve",
        "approve-number": "P3",
        "approve-issued_on": "2025-06-15",
        "approve-expires_on": "2030-06-14",
        "approve-service_frequency_days": "60",
        "approve-device_conditions": "1,000 gallon interceptor",
    }
    response = client.post(f"/permits/applications/{application.pk}/?as_of=2025-06-30", data)
    permit = Permit.objects.get(number="P3")
    assert response.status_code == 302 and response["Location"] == f"/permits/{permit.pk}/"
    assert permit.service_frequency_days == 60 and permit.application == application
    assert "1,000 gallon interceptor" in permit.conditions
    application.refresh_from_db()
    assert application.approved is True


def test_it_refuses_to_approve_an_application_lacking_required_items_naming_them(
    client, manager, sc
):
    application = apply(sc.establishments.get(code="FSE-0042"))
    response = client.post(f"/permits/applications/{application.pk}/", APPROVE)
    assert response.status_code == 400
    html = response.content.decode()
    assert "lacks what the ordinance requires: emergency contact, emergency contact" in html
    assert not Permit.objects.filter(number="P3").exists()
    application.refresh_from_db()
    assert application.decided_on is None
    ticked = {**APPROVE, "approve-override": "on", "approve-override_reason": ""}
    assert client.post(f"/permits/applications/{application.pk}/", ticked).status_code == 400
    assert not Permit.objects.filter(number="P3").exists()


def test_the_override_with_its_reason_approves_and_shows_on_the_permit(client, manager, sc):
    application = apply(sc.establishments.get(code="FSE-0042"))
    data = {
        **APPROVE,
        "approve-override": "on",
        "approve-override_reason": "Contact given by phone; form to follow",
    }
    response = client.post(f"/permits/applications/{application.pk}/", data, follow=True)
    permit = Permit.objects.get(number="P3")
    application.refresh_from_db()
    assert application.missing_override == "Contact given by phone; form to follow"
    html = response.content.decode()
    assert "by override, without emergency contact, emergency contact" in html
    assert "Contact given by phone; form to follow" in html and permit.application == application
    event = AuditEvent.objects.get(action="application.approve")
    assert "Contact given by phone" in event.reason


def test_it_refuses_an_expiry_past_the_max_term_citing_it_and_issues_nothing(client, manager, sc):
    application = apply(sc.establishments.get(code="FSE-0042"))
    data = {
        "decision": "approve",
        "approve-number": "P3",
        "approve-issued_on": "2025-06-15",
        "approve-expires_on": "2030-06-16",
    }
    response = client.post(f"/permits/applications/{application.pk}/", data)
    assert response.status_code == 400
    assert "13.30.050(E)" in response.content.decode()
    assert not Permit.objects.filter(number="P3").exists()


def test_denying_needs_reasons(client, manager, sc):
    application = apply(sc.establishments.get(code="FSE-0042"))
    url = f"/permits/applications/{application.pk}/"
    data = {"decision": "deny", "deny-decided_on": "2025-06-10", "deny-reasons": ""}
    assert client.post(url, data).status_code == 400
    assert PermitApplication.objects.get().decided_on is None
    client.post(url, {**data, "deny-reasons": "No interceptor"})
    application.refresh_from_db()
    assert application.approved is False
    assert AuditEvent.objects.get(action="application.refuse").reason == "No interceptor"


def test_an_inspector_may_read_the_queue_but_not_decide(client, sc):
    application = apply(sc.establishments.get(code="FSE-0042"))
    client.force_login(make_user("ivan", sc, role="inspector"))
    assert client.get("/permits/applications/").status_code == 200
    url = f"/permits/applications/{application.pk}/"
    assert (
        client.post(
            url, {"decision": "deny", "deny-decided_on": "2025-06-10", "deny-reasons": "x"}
        ).status_code
        == 403
    )
    assert PermitApplication.objects.get().decided_on is None


def test_another_agencys_permit_answers_404(client, sc):
    permit = make_permit(sc.establishments.get(code="FSE-0042"), "SC-9")
    client.force_login(
        make_user("tom", sc.__class__.objects.get(code="town-10-02"), role="manager")
    )
    assert client.get(f"/permits/{permit.pk}/").status_code == 404
    assert client.post(f"/permits/{permit.pk}/modify/").status_code == 404


def test_the_permit_document_names_number_holder_and_frequency(client, manager, sc):
    from io import BytesIO

    from pypdf import PdfReader

    fse = sc.establishments.get(code="FSE-0042")
    permit = make_permit(
        fse,
        "SC-9",
        issued_on="2025-06-01",
        expires_on="2030-05-31",
        service_frequency_days=60,
        holder="Harbor Eats Inc",
    )
    response = client.get(f"/permits/{permit.pk}/permit.pdf")
    text = "".join(p.extract_text() for p in PdfReader(BytesIO(response.content)).pages)
    assert "Discharge Permit" in text and "SC-9" in text
    assert "Harbor Eats Inc" in text and "Every 60 days" in text


def test_a_modification_on_30_days_notice_is_refused_and_nothing_written(client, manager, sc):
    fse = sc.establishments.get(code="FSE-0042")
    permit = make_permit(fse, "SC-9", issued_on="2025-06-01", expires_on="2030-05-31")
    data = {
        "noticed_on": "2026-12-01",
        "effective_on": "2026-12-31",
        "service_frequency_days": "60",
        "reason": "More grease",
    }
    response = client.post(f"/permits/{permit.pk}/modify/?as_of=2026-12-01", data)
    assert response.status_code == 400 and "13.30.050(J)" in response.content.decode()
    assert PermitModification.objects.count() == 0
    data["effective_on"] = "2027-01-15"
    assert client.post(f"/permits/{permit.pk}/modify/?as_of=2026-12-01", data).status_code == 302
    letter = PermitModification.objects.get().letter
    assert client.get(f"/permits/letters/{letter.pk}.pdf").content == bytes(letter.pdf)


def test_it_suspends_from_the_decision_naming_it(client, manager, sc):
    fse = sc.establishments.get(code="FSE-0042")
    permit = make_permit(fse, "SC-9", issued_on="2025-01-01", expires_on="2029-12-31")
    san_clemente_case(fse)
    page = client.get(f"/permits/{permit.pk}/suspend/").content.decode()
    assert "MD-1" in page
    decision = fse.cases.get().actions.get(code="MD-1")
    client.post(
        f"/permits/{permit.pk}/suspend/", {"decision": decision.pk, "suspended_from": "2025-06-06"}
    )
    permit.refresh_from_db()
    assert permit.status == "suspended" and permit.suspended_from == date(2025, 6, 6)
    assert "MD-1" in AuditEvent.objects.get(action="permit.suspend").reason


def test_it_refuses_a_revocation_without_a_decision_citing_it(client, manager, sc):
    permit = make_permit(sc.establishments.get(code="FSE-0042"), "SC-9")
    response = client.post(f"/permits/{permit.pk}/revoke/", {"revoked_on": "2025-06-06"})
    html = response.content.decode()
    assert response.status_code == 400 and "No written decision on a notice of revocation" in html
    assert "13.30.080(G)" in html
    permit.refresh_from_db()
    assert permit.revoked_on is None


def test_it_refuses_an_empty_suspension_without_a_decision_and_writes_nothing(client, manager, sc):
    permit = make_permit(sc.establishments.get(code="FSE-0042"), "SC-9")
    before = AuditEvent.objects.count()
    response = client.post(f"/permits/{permit.pk}/suspend/", {})
    assert response.status_code == 400
    assert "No written decision on a notice of suspension" in response.content.decode()
    permit.refresh_from_db()
    assert (permit.suspended_from, AuditEvent.objects.count()) == (None, before)


def test_plans_submitted_and_returned_keep_the_establishment_in_step(client, sc):
    client.force_login(make_user("ivan", sc, role="inspector"))
    fse = sc.establishments.get(code="FSE-0042")
    url = "/establishments/FSE-0042/plan-reviews/new/?as_of=2025-06-30"
    client.post(url, {"submitted_on": "2025-06-20", "description": "New interceptor"})
    fse.refresh_from_db()
    assert fse.interceptor_plans_submitted_on == date(2025, 6, 20)
    review = PlanReview.objects.get()
    decide = f"/establishments/FSE-0042/plan-reviews/{review.pk}/decide/?as_of=2025-06-30"
    assert (
        client.post(decide, {"decided_on": "2025-06-25", "outcome": "returned"}).status_code == 400
    )
    client.post(decide, {"decided_on": "2025-06-25", "outcome": "returned", "notes": "Too small"})
    fse.refresh_from_db()
    assert fse.interceptor_plans_submitted_on is None
    assert "Returned for correction" in client.get("/establishments/FSE-0042/").content.decode()


def test_a_plan_submitted_in_the_future_is_refused(client, sc):
    client.force_login(make_user("ivan", sc, role="inspector"))
    url = "/establishments/FSE-0042/plan-reviews/new/?as_of=2025-06-30"
    response = client.post(url, {"submitted_on": "2025-07-20", "description": "New"})
    assert response.status_code == 400 and PlanReview.objects.count() == 0


def test_the_permit_list_searches_by_holder(client, manager, sc):
    html = client.get("/permits/?q=pier+foods").content.decode()
    assert "FSE-0042-P2" in html
    assert "FSE-0042-P2" not in client.get("/permits/?q=nobody").content.decode()


def test_the_case_page_links_to_the_suspension_its_decision_orders(client, manager, sc):
    fse = sc.establishments.get(code="FSE-0042")
    permit = make_permit(fse, "SC-9", issued_on="2025-01-01", expires_on="2029-12-31")
    san_clemente_case(fse)
    html = client.get("/cases/FSE-0042/EC-7/").content.decode()
    assert f'href="/permits/{permit.pk}/suspend/"' in html and "decision MD-1" in html


def test_renewing_keeps_the_old_permit_as_superseded(client, manager, sc):
    fse = sc.establishments.get(code="FSE-0042")
    old = make_permit(fse, "SC-9", issued_on="2021-01-01", expires_on="2025-12-31")
    data = {"number": "SC-10", "issued_on": "2025-06-30", "expires_on": "2030-06-29"}
    response = client.post(f"/permits/{old.pk}/renew/", data)
    new = Permit.objects.get(number="SC-10")
    assert response["Location"] == f"/permits/{new.pk}/"
    old.refresh_from_db()
    assert old.status == "superseded" and old.ended_on == date(2025, 6, 30)

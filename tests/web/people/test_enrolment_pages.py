"""The public request form, the staff's queue and the manager's decision, and setting the
password from the emailed link."""

import re
from datetime import date

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core import mail

from fogkeeper.portal.enrolment import enrolment_request_submit
from fogkeeper.portal.models import EnrolmentRequest
from fogkeeper.registry.models import FoodServiceEstablishment, Hauler, Operator
from fogkeeper.web.models import Membership
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

FORM = {
    "kind": "hauler",
    "business_name": "Blue Wave Pumping",
    "contact_name": "Hana Ito",
    "email": "hana@bluewave.example",
    "phone": "949-555-0110",
    "mailing_address": "1 Dock St",
    "service_area": "San Clemente",
    "licence_number": "LIC-77",
    "licence_expires_on": "2027-03-31",
}


@pytest.fixture
def agencies():
    sc, town = two_agencies()
    make_establishment(sc, code="FSE-1", name="Pier Taqueria")
    return sc, town


def waiting(agency, **changes):
    data = {**FORM, "licence_expires_on": date(2027, 3, 31), **changes}
    return enrolment_request_submit(agency=agency, **data)


def test_the_public_form_shows_the_agency_name_and_what_comes_next(client, agencies):
    html = client.get("/enrol/san-clemente/").content.decode()
    assert "Ask City of San Clemente for an account" in html
    assert "you get an email with a link to set your password" in html
    assert "Pier Taqueria" not in html and "FSE-1" not in html


def test_the_sign_in_page_links_to_the_request(client, agencies):
    assert 'href="/enrol/"' in client.get("/accounts/login/").content.decode()
    assert "/enrol/town-10-02/" in client.get("/enrol/").content.decode()


def test_sending_the_form_keeps_the_request_and_says_what_comes_next(client, agencies):
    response = client.post("/enrol/san-clemente/", FORM, follow=True)
    assert EnrolmentRequest.objects.get().business_name == "Blue Wave Pumping"
    assert "Request sent" in response.content.decode()


def test_it_refuses_a_licence_expiry_that_is_not_a_date_naming_the_field(client, agencies):
    response = client.post("/enrol/san-clemente/", {**FORM, "licence_expires_on": "2027-02-30"})
    assert response.status_code == 400
    assert "Give the licence expiry date as a real date" in response.content.decode()
    assert not EnrolmentRequest.objects.exists()


def test_it_refuses_a_second_request_of_the_same_email(client, agencies):
    client.post("/enrol/san-clemente/", FORM)
    response = client.post("/enrol/san-clemente/", FORM)
    assert response.status_code == 400 and "already waiting" in response.content.decode()
    assert EnrolmentRequest.objects.count() == 1


def send(client, n: int, address: str):
    return client.post(
        "/enrol/san-clemente/", {**FORM, "email": f"hana{n}@bluewave.example"}, REMOTE_ADDR=address
    )


def test_it_pauses_requests_from_an_address_past_five_an_hour(client, agencies):
    with time_machine.travel("2026-03-02 09:00 -08:00", tick=False) as traveller:
        assert send(client, 0, "10.0.0.1").status_code == 302
        assert send(client, 0, "10.0.0.1").status_code == 400  # refused: not counted
        for n in range(1, 5):
            assert send(client, n, "10.0.0.1").status_code == 302
        response = send(client, 5, "10.0.0.1")
        assert response.status_code == 429
        html = response.content.decode()
        assert "Too many account requests were sent from your address" in html
        assert "try again in an hour" in html and 'value="Blue Wave Pumping"' in html
        assert not EnrolmentRequest.objects.filter(email="hana5@bluewave.example").exists()
        assert send(client, 6, "10.0.0.2").status_code == 302
        traveller.shift(60 * 60 + 1)
        assert send(client, 7, "10.0.0.1").status_code == 302
    assert EnrolmentRequest.objects.count() == 7


def test_an_unknown_agency_answers_404(client, agencies):
    assert client.get("/enrol/nowhere/").status_code == 404


def test_the_queue_lists_waiting_requests_newest_first_with_a_count_in_the_nav(client, agencies):
    sc, _ = agencies
    waiting(sc, business_name="First Vac", email="a@x.example")
    waiting(sc, business_name="Second Vac", email="b@x.example")
    client.force_login(make_user("mona", sc, role="manager"))
    html = client.get("/account-requests/").content.decode()
    assert html.index("Second Vac") < html.index("First Vac")
    assert re.search(r"People <span class=\"usa-tag\">2<span class=\"usa-sr-only\"> account", html)


def test_the_queue_searches_by_business(client, agencies):
    sc, _ = agencies
    waiting(sc, business_name="First Vac", email="a@x.example")
    waiting(sc, business_name="Second Vac", email="b@x.example")
    client.force_login(make_user("mona", sc, role="manager"))
    html = client.get("/account-requests/?q=second").content.decode()
    assert "Second Vac" in html and "First Vac" not in html


def test_another_agencys_request_answers_404(client, agencies):
    sc, town = agencies
    req = waiting(town)
    client.force_login(make_user("mona", sc, role="manager"))
    assert client.get(f"/account-requests/{req.pk}/").status_code == 404


def test_an_inspector_may_read_but_not_approve(client, agencies):
    sc, _ = agencies
    req = waiting(sc)
    client.force_login(make_user("ivan", sc, role="inspector"))
    assert "Approve" not in client.get(f"/account-requests/{req.pk}/").content.decode()
    response = client.post(f"/account-requests/{req.pk}/approve/", {"hauler_code": "H-9"})
    assert response.status_code == 403
    assert not Membership.objects.filter(role="hauler").exists()


def test_the_manager_approves_and_the_emailed_link_sets_a_password_to_sign_in(
    client, agencies, django_capture_on_commit_callbacks
):
    sc, _ = agencies
    req = waiting(sc)
    client.force_login(make_user("mona", sc, role="manager"))
    data = {"hauler_code": "H-9", "customers": "fse-1", "contracts_since": "2025-07-01"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/account-requests/{req.pk}/approve/", data, follow=True)
    assert "Blue Wave Pumping approved" in response.content.decode()
    assert Hauler.objects.get(code="H-9").contracts.get().establishment.code == "FSE-1"
    link = re.search(r"http://testserver(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    client.logout()
    form_page = client.get(link, follow=True)
    assert "Set your password" in form_page.content.decode()
    new = {"new_password1": "blue wave pumps 2025", "new_password2": "blue wave pumps 2025"}
    done = client.post(form_page.redirect_chain[-1][0], new, follow=True)
    assert "Password set" in done.content.decode()
    assert client.login(username="hana@bluewave.example", password="blue wave pumps 2025")


def test_approval_refused_for_an_unknown_establishment_names_the_field(client, agencies):
    sc, _ = agencies
    req = waiting(sc)
    client.force_login(make_user("mona", sc, role="manager"))
    response = client.post(
        f"/account-requests/{req.pk}/approve/", {"hauler_code": "H-9", "customers": "FSE-404"}
    )
    assert response.status_code == 400
    assert "No establishment has the number FSE-404." in response.content.decode()
    assert not Hauler.objects.filter(code="H-9").exists()
    assert not User.objects.filter(email=FORM["email"]).exists()


def test_rejecting_without_a_reason_is_refused_and_with_one_emails_it(
    client, agencies, django_capture_on_commit_callbacks
):
    sc, _ = agencies
    req = waiting(sc, kind="operator", establishments="Pier Taqueria")
    client.force_login(make_user("mona", sc, role="manager"))
    refused = client.post(f"/account-requests/{req.pk}/reject/", {"reason": ""})
    assert (
        refused.status_code == 400 and "Say why the request is rejected" in refused.content.decode()
    )
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/account-requests/{req.pk}/reject/", {"reason": "Not the operator."})
    req.refresh_from_db()
    assert req.status == "rejected" and "Not the operator." in mail.outbox[0].body


NEW_BUSINESS = {
    "kind": "operator",
    "business_name": "Taco Loco LLC",
    "contact_name": "Lupe Ruiz",
    "email": "lupe@tacoloco.example",
    "phone": "949-555-0120",
    "mailing_address": "PO Box 9\nSan Clemente, CA",
    "establishments": "Taco Loco, 12 Main St",
}


def approve_page(client, agency, req):
    client.force_login(make_user("mona", agency, role="manager"))
    return client.get(f"/account-requests/{req.pk}/").content.decode()


def test_a_new_business_is_approved_with_its_establishment_registered_in_one_step(client, agencies):
    sc, _ = agencies
    make_establishment(sc, code="FSE-0041", name="Harbor Grill")
    req = enrolment_request_submit(agency=sc, **NEW_BUSINESS)
    html = approve_page(client, sc, req)
    assert 'value="FSE-0042"' in html  # the agency's next number, by its own rule
    assert 'value="Taco Loco"' in html and 'value="12 Main St"' in html
    data = {
        "register": "on",
        "new_code": "FSE-0042",
        "new_name": "Taco Loco",
        "new_address": "12 Main St",
        "new_opened_on": "2025-06-01",
    }
    response = client.post(f"/account-requests/{req.pk}/approve/", data, follow=True)
    assert "Taco Loco LLC approved" in response.content.decode()
    fse = FoodServiceEstablishment.objects.get(agency=sc, code="FSE-0042")
    membership = Membership.objects.get(role="operator")
    assert fse.current_tenure().operator == membership.operator
    assert membership.operator.name == "Taco Loco LLC"


def test_a_refused_new_establishment_leaves_nothing_half_done(client, agencies):
    sc, _ = agencies
    req = enrolment_request_submit(agency=sc, **NEW_BUSINESS)
    approve_page(client, sc, req)
    data = {
        "register": "on",
        "new_code": "FSE-1",
        "new_name": "Taco Loco",
        "new_address": "12 Main St",
        "new_opened_on": "2025-06-01",
    }
    response = client.post(f"/account-requests/{req.pk}/approve/", data)
    assert response.status_code == 400 and "FSE-1" in response.content.decode()
    assert not Operator.objects.filter(name="Taco Loco LLC").exists()
    assert not Membership.objects.filter(role="operator").exists()
    req.refresh_from_db()
    assert req.waiting


def test_the_operator_on_record_is_chosen_by_default_not_a_duplicate(client, agencies):
    sc, _ = agencies
    eats = Operator.objects.create(agency=sc, name="Taco Loco LLC", email="other@x.example")
    req = enrolment_request_submit(agency=sc, **NEW_BUSINESS)
    html = approve_page(client, sc, req)
    assert f'data-lookup-id="{eats.pk}"' in html
    assert 'value="Taco Loco LLC"' in html
    data = {
        "register": "on",
        "new_code": "FSE-2",
        "new_name": "Taco Loco",
        "new_address": "12 Main St",
        "new_opened_on": "2025-06-01",
    }
    assert client.post(f"/account-requests/{req.pk}/approve/", data).status_code == 302
    assert Operator.objects.filter(name__iexact="Taco Loco LLC").count() == 1
    assert Membership.objects.get(role="operator").operator == eats

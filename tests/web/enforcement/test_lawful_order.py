"""Every enforcement act in the order its section sets (RULES.md 12.1-12.7), through the case
workbench as staff take it: the act out of order is refused in the page with its section and
nothing is stored; the act in order is taken."""

from __future__ import annotations

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import EnforcementAction, Letter
from fogkeeper.enforcement.services import (
    action_take,
    appeal_file,
    case_open,
    hearing_conclude,
    hearing_schedule,
    violation_add,
)
from fogkeeper.incidents.models import Incident
from fogkeeper.permits.models import Permit
from tests.compliance.records import make_pier_taqueria
from tests.records import d, make_permit
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


def counts():
    return (EnforcementAction.objects.count(), Letter.objects.count(), AuditEvent.objects.count())


@pytest.fixture
def sc():
    agency, _ = two_agencies()
    fse = make_pier_taqueria(agency)
    case = case_open(establishment=fse, code="EC-1", opened_on=d("2025-03-01"))
    violation_add(
        case=case, code="V-1", rule="gcd.service_overdue", subject="GT-2", since=d("2025-02-01")
    )
    sweep_agency(agency, as_of=d("2025-03-01"))
    return case


@pytest.fixture
def town():
    _, agency = two_agencies()
    fse = make_pier_taqueria(agency, code="T-0042")
    case = case_open(establishment=fse, code="EC-1", opened_on=d("2025-03-01"))
    sweep_agency(agency, as_of=d("2025-03-01"))
    return case


def manager(client, case):
    agency = case.establishment.agency
    client.force_login(make_user(f"boss-{agency.code}", agency, role="manager"))
    return client


def post(client, case, what: str, data: dict, as_of: str = "2025-06-06"):
    url = f"/cases/{case.establishment.code}/{case.code}/{what}/?as_of={as_of}"
    return client.post(url, data)


def penalty(code="PO-1", by="manager", on="2025-04-01", refers_to="", **more):
    return {
        "code": code,
        "issued_by": by,
        "issued_on": on,
        "served_on": on,
        "amount": "1000",
        "class": "records",
        "days": "1",
        "delivery": "personal",
        "refers_to": refers_to,
        **more,
    }


def complaint(case, served_on="2025-03-03"):
    return action_take(
        case=case,
        type="administrative_complaint",
        code="AC-1",
        fields={"served_on": d(served_on)},
        delivery="personal",
    )


def refused(response, *words: str) -> None:
    assert response.status_code == 400
    text = response.content.decode()
    assert "Nothing was recorded." in text
    for w in words:
        assert w in text, w


# 12.1: a penalty follows its complaint's hearing, or the written waiver of it


def test_a_penalty_order_with_no_complaint_heard_is_refused_with_its_section(client, sc):
    manager(client, sc)
    before = counts()

    response = post(client, sc, "act/penalty_order", penalty())

    refused(response, "13.30.080(I)(4)(a)-(c)", "administrative complaint")
    assert counts() == before


def test_a_penalty_order_on_a_complaint_whose_hearing_is_still_ahead_is_refused(client, sc):
    ac = complaint(sc)
    hearing_schedule(notice=ac, code="H-1", hearing_on=d("2025-03-20"), noticed_on=d("2025-03-03"))
    manager(client, sc)
    before = counts()

    response = post(client, sc, "act/penalty_order", penalty(refers_to="AC-1"))

    refused(response, "13.30.080(I)(4)(a)-(c)", "the hearing on AC-1 has not concluded")
    assert counts() == before


def test_a_penalty_order_follows_the_written_waiver_of_the_hearing(client, sc):
    complaint(sc)
    manager(client, sc)
    waiver = {"code": "W-1", "waived_on": "2025-03-10", "waived_by": "Pier Foods LLC"}
    assert post(client, sc, "hearing/waived", {**waiver, "refers_to": "AC-1"}).status_code == 302
    early = post(client, sc, "act/penalty_order", penalty(on="2025-03-09", refers_to="AC-1"))
    refused(early, "concluded or was waived on 2025-03-10")

    response = post(client, sc, "act/penalty_order", penalty(on="2025-03-11", refers_to="AC-1"))

    assert response.status_code == 302
    assert EnforcementAction.objects.get(code="PO-1").refers_to.code == "AC-1"


# 12.1: a decision follows its hearing; the Town's hearing officer never decides first


def test_a_managers_decision_before_the_hearing_concluded_is_refused(client, sc):
    notice = action_take(
        case=sc,
        type="suspension_notice",
        code="SN-1",
        fields={"mailed_on": d("2025-03-03")},
        delivery="personal",
    )
    hearing = hearing_schedule(
        notice=notice, code="H-1", hearing_on=d("2025-03-20"), noticed_on=d("2025-03-03")
    )
    hearing_conclude(hearing=hearing, concluded_on=d("2025-03-20"))
    decision = {
        "code": "MD-1",
        "delivered_on": "2025-03-19",
        "delivery": "personal",
        "orders": "suspension",
        "refers_to": "H-1",
    }
    manager(client, sc)

    refused(
        post(client, sc, "act/manager_decision", decision), "concluded or was waived on 2025-03-20"
    )
    response = post(client, sc, "act/manager_decision", {**decision, "delivered_on": "2025-03-21"})

    assert response.status_code == 302


def test_the_towns_hearing_decision_is_never_the_first_act_of_a_case(client, town):
    manager(client, town)
    before = counts()
    data = {"code": "HD-1", "noticed_on": "2025-03-05", "delivery": "personal"}

    response = post(client, town, "act/hearing_decision", data)

    refused(response, "10.02.260(B); 10.02.270(C); 10.02.330(C)", "needs a notice or complaint")
    assert counts() == before
    page = client.get("/cases/T-0042/EC-1/?as_of=2025-03-05").content.decode()
    assert "Decision of the hearing officer</strong>" in page  # in what is not yet allowed


# 12.1, 12.2: only a decision that orders it suspends or revokes the permit


def suspension_decided(case, orders: str, on="2025-03-25"):
    notice = action_take(
        case=case,
        type="suspension_notice",
        code="SN-1",
        fields={"mailed_on": d("2025-03-03")},
        delivery="personal",
    )
    hearing = hearing_schedule(
        notice=notice, code="H-1", hearing_on=d("2025-03-20"), noticed_on=d("2025-03-03")
    )
    hearing_conclude(hearing=hearing, concluded_on=d("2025-03-20"))
    return action_take(
        case=case,
        type="manager_decision",
        code="MD-1",
        refers_to=hearing,
        fields={"delivered_on": d(on), "orders": orders},
    )


def test_a_decision_that_orders_no_suspension_cannot_suspend_the_permit(client, sc):
    permit = make_permit(sc.establishment, "SC-1", issued_on="2024-01-01")
    suspension_decided(sc, "no_action")
    action_take(
        case=sc,
        type="emergency_suspension",
        code="ES-1",
        fields={"ordered_at": "2025-03-26T08:00:00"},
    )
    manager(client, sc)
    page = client.get(f"/permits/{permit.pk}/suspend/?as_of=2025-03-30").content.decode()
    assert "ES-1" not in page and "MD-1" not in page  # neither is offered as a ground

    response = client.post(
        f"/permits/{permit.pk}/suspend/?as_of=2025-03-30",
        {"decision": "", "suspended_from": "2025-03-30"},
    )

    assert response.status_code == 400
    assert "13.30.080(G)(2)" in response.content.decode()
    assert Permit.objects.get(pk=permit.pk).status != "suspended"


def test_a_decision_that_orders_the_suspension_suspends_the_permit(client, sc):
    permit = make_permit(sc.establishment, "SC-1", issued_on="2024-01-01")
    decision = suspension_decided(sc, "suspension")
    manager(client, sc)

    response = client.post(
        f"/permits/{permit.pk}/suspend/?as_of=2025-03-30",
        {"decision": decision.pk, "suspended_from": "2025-03-30"},
    )

    assert response.status_code == 302
    assert Permit.objects.get(pk=permit.pk).status == "suspended"


# 12.3: the Town's suspension or revocation takes effect upon the final order


def revocation_decided(town):
    """The Town's FOG Permit FOG-1 and the hearing officer's decision HD-1 of March 24,
    which orders it revoked after the hearing on the revocation notice RN-1."""
    permit = make_permit(
        town.establishment, "FOG-1", issued_on="2024-07-01", expires_on="2026-06-30"
    )
    notice = action_take(
        case=town,
        type="revocation_notice",
        code="RN-1",
        fields={"mailed_on": d("2025-03-03")},
        delivery="personal",
    )
    hearing = hearing_schedule(
        notice=notice, code="H-1", hearing_on=d("2025-03-20"), noticed_on=d("2025-03-03")
    )
    hearing_conclude(hearing=hearing, concluded_on=d("2025-03-20"))
    decision = action_take(
        case=town,
        type="hearing_decision",
        code="HD-1",
        refers_to=hearing,
        fields={"noticed_on": d("2025-03-24"), "orders": "revocation"},
    )
    return permit, decision


def test_the_town_revokes_only_once_the_hearing_officers_order_is_final(client, town):
    permit, decision = revocation_decided(town)
    appeal_file(appealed=decision, code="AP-1", filed_on=d("2025-04-01"), to="council")
    manager(client, town)
    url = f"/permits/{permit.pk}/revoke/?as_of=2025-04-20"

    response = client.post(url, {"decision": decision.pk, "revoked_on": "2025-04-20"})

    assert response.status_code == 400
    assert "an appeal of HD-1 filed in time is not decided" in response.content.decode()
    assert Permit.objects.get(pk=permit.pk).status != "revoked"


# 12.4: a penalty's class needs its ground on record


def test_an_overflow_penalty_needs_the_overflows_on_record(client, town):
    ac = complaint(town, served_on="2025-03-03")
    hearing = hearing_schedule(
        notice=ac, code="H-1", hearing_on=d("2025-03-20"), noticed_on=d("2025-03-03")
    )
    hearing_conclude(hearing=hearing, concluded_on=d("2025-03-20"))
    data = penalty(by="hearing_officer", on="2025-03-25", refers_to="AC-1", **{"class": "overflow"})
    data.pop("days")
    data.update(occurrences="1", amount="5000")
    manager(client, town)

    refused(
        post(client, town, "act/penalty_order", data), "10.02.330(C), (D)(4)", "0 such overflow"
    )
    Incident.objects.create(
        agency=town.establishment.agency,
        establishment=town.establishment,
        code="SSO-1",
        date=d("2025-02-10"),
        kind="overflow",
        attributed=True,
    )
    response = post(client, town, "act/penalty_order", data)

    assert response.status_code == 302


# 12.5: acts are dated on or before today; planned dates may lie ahead


def test_a_notice_delivered_in_the_future_is_refused_and_a_future_correct_by_is_not(client, sc):
    data = {
        "code": "NNC-1",
        "delivered_on": "2099-01-05",
        "correct_by": "2099-02-05",
        "delivery": "personal",
    }
    manager(client, sc)
    before = counts()

    refused(post(client, sc, "act/notice_of_noncompliance", data), "2099-01-05 is after today")
    assert counts() == before
    response = post(
        client, sc, "act/notice_of_noncompliance", {**data, "delivered_on": "2025-03-05"}
    )
    assert response.status_code == 302


# 12.7: a late appeal is received, rejected and changes nothing of the order


def test_a_late_appeal_is_recorded_as_rejected_and_changes_no_date(client, sc):
    notice = action_take(
        case=sc,
        type="notice_of_noncompliance",
        code="NNC-1",
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
        delivery="personal",
    )
    manager(client, sc)
    page = client.get("/cases/FSE-0042/EC-1/?as_of=2025-03-20").content.decode()
    assert "Appeal of NNC-1 to the Utilities Manager, last day 2025-03-13" in page

    response = post(
        client,
        sc,
        "appeal",
        {
            "code": "AP-1",
            "filed_on": "2025-03-17",
            "appellant": "Pier Foods LLC",
            "grounds": "We pumped it out.",
            "refers_to": "NNC-1",
            "to": "manager",
        },
        as_of="2025-03-20",
    )

    assert response.status_code == 302
    appeal = EnforcementAction.objects.get(code="AP-1")
    assert (appeal.fields["rejected"], appeal.fields["last_day"]) == ("late", "2025-03-13")
    assert (appeal.fields["appellant"], appeal.fields["grounds"]) == (
        "Pier Foods LLC",
        "We pumped it out.",
    )
    assert (
        notice.effective_fields() == EnforcementAction.objects.get(code="NNC-1").effective_fields()
    )


def test_the_town_revokes_from_the_day_the_unappealed_order_became_final(client, town):
    permit, decision = revocation_decided(town)
    manager(client, town)
    url = f"/permits/{permit.pk}/revoke/?as_of=2025-04-20"

    # 15 days to appeal to the Council, to April 8: final on April 9 (10.02.260(B))
    early = client.post(url, {"decision": decision.pk, "revoked_on": "2025-04-08"})
    response = client.post(url, {"decision": decision.pk, "revoked_on": "2025-04-09"})

    assert early.status_code == 400
    assert "HD-1 became final on 2025-04-09" in early.content.decode()
    assert response.status_code == 302
    assert Permit.objects.get(pk=permit.pk).revoked_on == d("2025-04-09")


# 12.6: who signs, and the certified-mail number of a notice mailed


def test_a_notice_mailed_needs_its_certified_number_and_is_signed_at_its_level(client, sc):
    from tests.letters.test_letters import text_of

    data = {
        "code": "NNC-1",
        "delivered_on": "2025-03-05",
        "correct_by": "2025-04-04",
        "delivery": "mail",
        "certified_mail_number": "",
    }
    manager(client, sc)
    before = counts()

    refused(post(client, sc, "act/notice_of_noncompliance", data), "certified")
    assert counts() == before
    numbered = {**data, "certified_mail_number": "7019 0700 0000 1111 0001"}
    assert post(client, sc, "act/notice_of_noncompliance", numbered).status_code == 302

    text = text_of(Letter.objects.get(action__code="NNC-1").pdf)
    assert "By certified mail, No. 7019 0700 0000 1111 0001" in text
    assert "Authorized Inspector" in text and "Utilities Manager Utilities" not in text


def test_the_written_appeal_is_kept_as_received_and_opened_from_the_case(
    client, sc, settings, tmp_path
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    settings.MEDIA_ROOT = tmp_path
    action_take(
        case=sc,
        type="notice_of_noncompliance",
        code="NNC-1",
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
        delivery="personal",
    )
    manager(client, sc)
    pdf = b"%PDF-1.4\n% the operator's appeal\n%%EOF\n"
    data = {
        "code": "AP-1",
        "filed_on": "2025-03-10",
        "appellant": "Pier Foods LLC",
        "grounds": "The trap was pumped out.",
        "refers_to": "NNC-1",
        "to": "manager",
        "document": SimpleUploadedFile("appeal.pdf", pdf, "application/pdf"),
    }
    html = SimpleUploadedFile("appeal.pdf", b"<html>not a PDF</html>", "application/pdf")

    refused(post(client, sc, "appeal", {**data, "document": html}), "must be a PDF")
    assert post(client, sc, "appeal", data).status_code == 302
    page = client.get("/cases/FSE-0042/EC-1/?as_of=2025-03-10").content.decode()
    response = client.get("/cases/FSE-0042/EC-1/documents/AP-1/")

    assert "/cases/FSE-0042/EC-1/documents/AP-1/" in page
    assert b"".join(response.streaming_content) == pdf

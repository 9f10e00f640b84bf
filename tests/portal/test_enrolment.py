"""Enrolment services: a request for an account, approved (membership, records, email) or
rejected (reason emailed); each refusal writes nothing. Uses the portal world (conftest)."""

from datetime import date

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.permits.models import Permit
from fogkeeper.portal.enrolment import (
    enrolment_request_approve,
    enrolment_request_reject,
    enrolment_request_submit,
)
from fogkeeper.portal.models import EnrolmentRequest
from fogkeeper.registry.models import Hauler, Operator, ServiceContract
from fogkeeper.web.common import policy
from fogkeeper.web.models import Membership
from tests.records import make_permit
from tests.web.people import make_user

pytestmark = pytest.mark.django_db

SITE = "http://fog.example"
HAULER = {
    "kind": "hauler",
    "business_name": "Blue Wave Pumping",
    "contact_name": "Hana Ito",
    "email": "Hana@BlueWave.example",
    "phone": "949-555-0110",
    "mailing_address": "1 Dock St",
    "service_area": "San Clemente, Dana Point",
    "licence_number": "LIC-77",
    "licence_expires_on": date(2027, 3, 31),
}
OPERATOR = {
    "kind": "operator",
    "business_name": "Harbor Eats Inc",
    "contact_name": "Olga Reyes",
    "email": "olga@harboreats.example",
    "phone": "949-555-0120",
    "mailing_address": "2 Pier Rd",
    "establishments": "Pier Taqueria, 101 Avenida Del Mar",
    "establishment_codes": ["fse-0042"],
}


@pytest.fixture
def manager(world):
    return make_user("mona", world.sc, role="manager")


def submit(world, **changes):
    return enrolment_request_submit(agency=world.sc, **{**HAULER, **changes})


def test_it_keeps_a_request_with_its_email_in_lower_case_and_an_audit_row(world):
    req = submit(world)
    assert req.status == "waiting" and req.email == "hana@bluewave.example"
    assert AuditEvent.objects.filter(action="enrolment.submit", object_id=str(req.pk)).exists()


def test_it_refuses_a_second_waiting_request_of_the_same_email(world):
    submit(world)
    with pytest.raises(ValidationError) as e:
        submit(world, email="hana@bluewave.example")
    assert "already waiting" in e.value.message_dict["email"][0]
    assert EnrolmentRequest.objects.count() == 1


def test_it_takes_the_same_email_at_another_agency(world):
    submit(world)
    enrolment_request_submit(agency=world.town, **HAULER)
    assert EnrolmentRequest.objects.count() == 2


def test_it_refuses_a_hauler_without_its_licence_and_an_invalid_email(world):
    with pytest.raises(ValidationError) as e:
        submit(world, licence_number="", licence_expires_on=None, email="hana at bluewave")
    errors = e.value.message_dict
    assert set(errors) == {"licence_number", "licence_expires_on", "email"}
    assert errors["licence_expires_on"] == ["Give the licence expiry date."]
    assert not EnrolmentRequest.objects.exists()


def test_it_refuses_an_operator_naming_no_establishment(world):
    with pytest.raises(ValidationError) as e:
        enrolment_request_submit(
            agency=world.sc, **{**OPERATOR, "establishments": "", "establishment_codes": []}
        )
    assert "establishments" in e.value.message_dict


def test_approving_a_hauler_registers_it_starts_its_contract_and_emails_a_link(
    world, manager, django_capture_on_commit_callbacks
):
    req = submit(world)
    with django_capture_on_commit_callbacks(execute=True):
        m = enrolment_request_approve(
            request=req,
            actor=manager,
            site=SITE,
            hauler_code="H-BW",
            customers=[world.grill],
            contracts_since=date(2025, 6, 15),
        )
    hauler = Hauler.objects.get(agency=world.sc, code="H-BW")
    assert (m.role, m.hauler, m.agency) == ("hauler", hauler, world.sc)
    assert hauler.licence_number == "LIC-77" and hauler.name == "Blue Wave Pumping"
    assert ServiceContract.objects.filter(hauler=hauler, establishment=world.grill).exists()
    assert not m.user.has_usable_password() and m.user.username == "hana@bluewave.example"
    req.refresh_from_db()
    assert (req.status, req.decided_by, req.membership) == ("approved", manager, m)
    assert [msg.to for msg in mail.outbox] == [["hana@bluewave.example"]]
    assert f"{SITE}/accounts/reset/" in mail.outbox[0].body


def test_approval_writes_audit_rows_for_each_record(world, manager):
    req = submit(world)
    enrolment_request_approve(request=req, actor=manager, site=SITE, hauler_code="H-BW")
    actions = set(AuditEvent.objects.filter(actor=manager).values_list("action", flat=True))
    assert {"hauler.register", "user.create", "membership.create", "enrolment.approve"} <= actions


def test_a_hauler_approved_by_san_clemente_is_not_approved_by_the_town(world, manager):
    req = submit(world)
    m = enrolment_request_approve(request=req, actor=manager, site=SITE, hauler_code="H-BW")
    assert policy.role(m.user, world.sc) == "hauler"
    assert policy.role(m.user, world.town) is None


def test_the_same_person_approved_by_a_second_agency_gets_a_membership_not_a_user(world, manager):
    enrolment_request_approve(request=submit(world), actor=manager, site=SITE, hauler_code="H-1")
    town_manager = make_user("tom", world.town, role="manager")
    town_req = enrolment_request_submit(agency=world.town, **HAULER)
    enrolment_request_approve(request=town_req, actor=town_manager, site=SITE, hauler_code="H-1")
    user = User.objects.get(email="hana@bluewave.example")
    assert User.objects.filter(email__iexact="hana@bluewave.example").count() == 1
    assert set(user.memberships.values_list("agency__code", flat=True)) == {
        "san-clemente",
        "town-10-02",
    }


def test_it_refuses_a_hauler_of_another_agency_and_writes_nothing(world, manager):
    req = submit(world)
    town_hauler = Hauler.objects.create(agency=world.town, code="TH", name="Town Vac")
    with pytest.raises(ValidationError) as e:
        enrolment_request_approve(request=req, actor=manager, site=SITE, hauler=town_hauler)
    assert "hauler" in e.value.message_dict
    assert not Membership.objects.filter(role="hauler").exists()
    req.refresh_from_db()
    assert req.status == "waiting"


def test_it_refuses_a_hauler_code_already_taken(world, manager):
    with pytest.raises(ValidationError) as e:
        enrolment_request_approve(
            request=submit(world), actor=manager, site=SITE, hauler_code="FSE-0042-H1"
        )
    assert "hauler_code" in e.value.message_dict
    assert not User.objects.filter(email="hana@bluewave.example").exists()


def test_approving_an_operator_links_the_operator_that_runs_its_establishment(world, manager):
    req = enrolment_request_submit(agency=world.sc, **OPERATOR)
    eats = Operator.objects.get(agency=world.sc, name="Harbor Eats Inc")
    m = enrolment_request_approve(
        request=req, actor=manager, site=SITE, operator=eats, establishments=[world.pier]
    )
    assert m.operator == eats
    assert list(policy.establishments(m.user, world.sc)) == [world.pier]


def test_it_refuses_an_establishment_the_operator_does_not_run_without_a_change_date(
    world, manager
):
    req = enrolment_request_submit(agency=world.sc, **OPERATOR)
    eats = Operator.objects.get(agency=world.sc, name="Harbor Eats Inc")
    with pytest.raises(ValidationError) as e:
        enrolment_request_approve(
            request=req, actor=manager, site=SITE, operator=eats, establishments=[world.grill]
        )
    assert "run by Harbor Grill Inc" in e.value.message_dict["change_on"][0]
    assert not Membership.objects.filter(role="operator").exists()


def test_a_new_operator_with_a_change_date_takes_over_and_the_permit_ends(world, manager):
    permit = make_permit(world.grill, number="SC-9")
    req = enrolment_request_submit(
        agency=world.sc, **{**OPERATOR, "business_name": "Grill Two LLC"}
    )
    m = enrolment_request_approve(
        request=req,
        actor=manager,
        site=SITE,
        establishments=[world.grill],
        change_on=date(2025, 6, 15),
    )
    assert world.grill.current_tenure().operator == m.operator
    assert m.operator.name == "Grill Two LLC"
    permit.refresh_from_db()
    assert permit.status == "ended"
    assert Permit.objects.filter(establishment=world.grill, status="active").count() == 0


def test_it_refuses_a_second_decision(world, manager):
    req = submit(world)
    enrolment_request_reject(request=req, reason="No licence on file.", actor=manager)
    with pytest.raises(ValidationError) as e:
        enrolment_request_approve(request=req, actor=manager, site=SITE, hauler_code="H-BW")
    assert "already rejected" in e.value.message_dict["status"][0]


def test_rejecting_emails_the_reason(world, manager, django_capture_on_commit_callbacks):
    req = submit(world)
    with django_capture_on_commit_callbacks(execute=True):
        enrolment_request_reject(request=req, reason="Licence LIC-77 is not valid.", actor=manager)
    req.refresh_from_db()
    assert req.status == "rejected" and req.reason == "Licence LIC-77 is not valid."
    assert "Licence LIC-77 is not valid." in mail.outbox[0].body
    assert AuditEvent.objects.filter(action="enrolment.reject", actor=manager).exists()


def test_it_refuses_a_rejection_without_a_reason(world, manager):
    req = submit(world)
    with pytest.raises(ValidationError) as e:
        enrolment_request_reject(request=req, reason="  ", actor=manager)
    assert "reason" in e.value.message_dict
    req.refresh_from_db()
    assert req.status == "waiting"


def test_a_contract_starting_after_today_is_refused_on_its_field_and_nothing_written(
    world, manager
):
    req = submit(world)
    with pytest.raises(ValidationError) as e:
        enrolment_request_approve(
            request=req,
            actor=manager,
            site=SITE,
            hauler_code="H-BW",
            customers=[world.grill],
            contracts_since=date(2025, 7, 1),
        )
    assert "is in the future" in e.value.message_dict["contracts_since"][0]
    assert not Hauler.objects.filter(code="H-BW").exists()
    req.refresh_from_db()
    assert req.status == "waiting" and not mail.outbox

"""Staff dispute a pump-out a hauler submitted, and withdraw the dispute: the pump-out is
kept, does not count while disputed, and the establishment is evaluated again at once."""

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.maintenance.models import Service, ServiceDispute
from tests.portal import haulers
from tests.portal.haulers import SUBMIT, pump_out, staff_user, trap_overdue
from tests.records import make_service

pytestmark = pytest.mark.django_db
clock, world = haulers.clock, haulers.world  # the fixtures


@pytest.fixture
def submitted(client, world):
    """The hauler's pump-out of the overdue trap, which closed its overdue finding."""
    client.force_login(world.hank)
    client.post(SUBMIT, pump_out(world.trap))
    client.logout()
    return Service.objects.get(manifest_number="CP-900")


def url(service, code="FSE-0042") -> str:
    return f"/establishments/{code}/services/{service.pk}/dispute/"


def to_dispute(reason: str) -> dict:
    return {"action": "dispute", "reason": reason}


def to_withdraw(reason: str) -> dict:
    return {"action": "withdraw", "reason": reason}


def test_it_lets_an_inspector_dispute_a_pump_out_which_then_no_longer_counts(
    client, world, submitted
):
    assert not trap_overdue(world.pier)
    client.force_login(staff_user("ines", world.sc))
    response = client.post(url(submitted), to_dispute("No truck on the camera"))
    assert response["Location"] == "/establishments/FSE-0042/"
    dispute = ServiceDispute.objects.get(service=submitted)
    assert (dispute.reason, dispute.raised_by.username) == ("No truck on the camera", "ines")
    assert Service.objects.filter(pk=submitted.pk).exists()
    assert trap_overdue(world.pier)


def test_it_writes_an_audit_row_for_the_dispute(client, world, submitted):
    ines = staff_user("ines", world.sc)
    client.force_login(ines)
    client.post(url(submitted), to_dispute("No truck on the camera"))
    event = AuditEvent.objects.get(action="service.dispute")
    assert (event.actor, event.agency) == (ines, world.sc)


def test_it_withdraws_the_dispute_and_keeps_it_on_record(client, world, submitted):
    client.force_login(staff_user("ines", world.sc))
    client.post(url(submitted), to_dispute("No truck on the camera"))
    assert "Withdraw the dispute" in client.get(url(submitted)).content.decode()

    client.post(url(submitted), to_withdraw("The driver's log shows the visit"))

    dispute = ServiceDispute.objects.get(service=submitted)
    assert dispute.withdrawn_on is not None
    assert dispute.withdrawn_reason == "The driver's log shows the visit"
    assert not trap_overdue(world.pier)
    assert AuditEvent.objects.filter(action="service.dispute_withdraw").count() == 1


def test_it_shows_the_dispute_on_the_establishment_page(client, world, submitted):
    client.force_login(staff_user("ines", world.sc))
    client.post(url(submitted), to_dispute("No truck on the camera"))
    html = client.get("/establishments/FSE-0042/").content.decode()
    assert "submitted by the hauler (form)" in html
    assert "disputed since 2025-06-30" in html
    assert f'href="{url(submitted)}" aria-label="Withdraw the dispute of manifest CP-900"' in html


def test_it_links_a_dispute_form_from_the_establishment_page_for_an_inspector(
    client, world, submitted
):
    client.force_login(staff_user("ines", world.sc))
    html = client.get("/establishments/FSE-0042/").content.decode()
    assert f'href="{url(submitted)}" aria-label="Dispute manifest CP-900"' in html


def test_it_asks_for_a_reason(client, world, submitted):
    client.force_login(staff_user("ines", world.sc))
    response = client.post(url(submitted), to_dispute("  "))
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()
    assert not ServiceDispute.objects.exists()


def test_it_forbids_an_auditor(client, world, submitted):
    client.force_login(staff_user("audrey", world.sc, role="auditor"))
    assert client.get(url(submitted)).status_code == 403
    assert client.post(url(submitted), to_dispute("Doubt")).status_code == 403
    assert not ServiceDispute.objects.exists()
    assert "Dispute" not in client.get("/establishments/FSE-0042/").content.decode()


def test_it_forbids_a_clerk(client, world, submitted):
    client.force_login(staff_user("carol", world.sc, role="clerk"))
    assert client.post(url(submitted), to_dispute("Doubt")).status_code == 403
    assert not ServiceDispute.objects.exists()


def test_it_lets_a_manager_dispute(client, world, submitted):
    client.force_login(staff_user("mona", world.sc, role="manager"))
    client.post(url(submitted), to_dispute("Doubt"))
    assert ServiceDispute.objects.filter(service=submitted, raised_by__username="mona").exists()


def test_it_answers_404_for_another_agencys_pump_out(client, world):
    town_service = make_service(world.town_fse.devices.get(), "T-1", "2025-06-01")
    client.force_login(staff_user("ines", world.sc))
    assert client.get(url(town_service)).status_code == 404
    assert client.post(url(town_service), to_dispute("Doubt")).status_code == 404
    assert not ServiceDispute.objects.exists()


def test_it_answers_404_when_the_pump_out_is_not_of_that_establishment(client, world, submitted):
    client.force_login(staff_user("ines", world.sc))
    assert client.get(url(submitted, code="FSE-7")).status_code == 404


def test_it_answers_404_to_the_hauler(client, world, submitted):
    client.force_login(world.hank)
    assert client.post(url(submitted), to_dispute("Doubt")).status_code == 404
    assert not ServiceDispute.objects.exists()


def test_it_keeps_the_dispute_when_dispute_is_posted_twice(client, world, submitted):
    client.force_login(staff_user("ines", world.sc))
    client.post(url(submitted), to_dispute("No truck on the camera"))
    response = client.post(url(submitted), to_dispute("No truck on the camera"), follow=True)
    assert "Manifest CP-900 is already disputed (since 2025-06-30); nothing was changed." in (
        response.content.decode()
    )
    assert ServiceDispute.objects.get(service=submitted).withdrawn_on is None
    assert AuditEvent.objects.filter(action__startswith="service.dispute").count() == 1


def test_it_says_so_when_withdrawing_a_pump_out_not_disputed(client, world, submitted):
    client.force_login(staff_user("ines", world.sc))
    response = client.post(url(submitted), to_withdraw("Seen"), follow=True)
    assert "Manifest CP-900 is not disputed; nothing was changed." in response.content.decode()
    assert not ServiceDispute.objects.exists()
    assert not AuditEvent.objects.filter(action__startswith="service.dispute").exists()


def test_it_withdraws_only_when_asked_to_withdraw(client, world, submitted):
    client.force_login(staff_user("ines", world.sc))
    client.post(url(submitted), to_dispute("No truck on the camera"))
    client.post(url(submitted), to_withdraw("Seen"))
    client.post(url(submitted), to_withdraw("Seen again"))
    assert ServiceDispute.objects.get(service=submitted).withdrawn_reason == "Seen"
    assert AuditEvent.objects.filter(action="service.dispute_withdraw").count() == 1


def test_it_asks_which_action_when_none_is_named(client, world, submitted):
    client.force_login(staff_user("ines", world.sc))
    response = client.post(url(submitted), {"reason": "Doubt"})
    assert response.status_code == 400
    assert "Choose whether to dispute the pump-out or to withdraw its dispute." in (
        response.content.decode()
    )
    assert not ServiceDispute.objects.exists()


def test_it_names_the_action_on_the_button(client, world, submitted):
    client.force_login(staff_user("ines", world.sc))
    assert 'name="action" value="dispute"' in client.get(url(submitted)).content.decode()
    client.post(url(submitted), to_dispute("No truck on the camera"))
    assert 'name="action" value="withdraw"' in client.get(url(submitted)).content.decode()

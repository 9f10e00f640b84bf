"""A hauler submits one pump-out of a customer's device by form."""

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.maintenance.models import Service

from . import haulers
from .haulers import PIER, SUBMIT, pump_out, staff_user, trap_overdue

pytestmark = pytest.mark.django_db
clock, world = haulers.clock, haulers.world  # the fixtures


def test_it_offers_the_customers_devices_in_place(client, world):
    client.force_login(world.hank)
    html = client.get(SUBMIT).content.decode()
    assert ">GT-2: Grease trap</option>" in html
    assert ">GI-1: Grease interceptor, 1000 gallons</option>" in html
    assert "GI-0" not in html


def test_it_records_the_pump_out_marked_as_the_haulers(client, world):
    client.force_login(world.hank)
    response = client.post(SUBMIT, pump_out(world.trap))
    assert response["Location"] == PIER
    service = Service.objects.get(manifest_number="CP-900")
    assert (service.hauler, service.device, service.source) == (
        world.coastal,
        world.trap,
        "hauler_form",
    )
    assert service.submitted_by == world.hank


def test_it_writes_an_audit_row_naming_the_hauler_login(client, world):
    client.force_login(world.hank)
    client.post(SUBMIT, pump_out(world.trap))
    event = AuditEvent.objects.get(action="service.record")
    assert (event.actor, event.agency) == (world.hank, world.sc)


def test_it_clears_the_overdue_finding_and_shows_on_the_staff_page_as_the_haulers(client, world):
    assert trap_overdue(world.pier)
    client.force_login(world.hank)
    client.post(SUBMIT, pump_out(world.trap))
    assert not trap_overdue(world.pier)

    client.force_login(staff_user("ines", world.sc))
    html = client.get("/establishments/FSE-0042/").content.decode()
    assert "GT-2 pumped out, manifest CP-900 by Coastal Pumping" in html
    assert "submitted by the hauler (form)" in html
    assert '<th scope="row">Pump-out overdue</th><td>GT-2</td>' not in html


def test_it_adds_nothing_when_the_same_manifest_is_submitted_again_and_says_so(client, world):
    client.force_login(world.hank)
    client.post(SUBMIT, pump_out(world.trap))
    response = client.post(SUBMIT, pump_out(world.trap), follow=True)
    assert Service.objects.filter(manifest_number="CP-900").count() == 1
    assert AuditEvent.objects.filter(action="service.record").count() == 1
    assert "Manifest CP-900 was already recorded (GT-2 on 2025-06-20); nothing was added." in (
        response.content.decode()
    )


def test_it_refuses_the_same_manifest_with_other_readings(client, world):
    client.force_login(world.hank)
    client.post(SUBMIT, pump_out(world.trap))
    response = client.post(SUBMIT, pump_out(world.trap, fog_inches="2"))
    assert response.status_code == 400
    assert "Manifest CP-900 was already sent with a different FOG depth;" in (
        response.content.decode()
    )


def test_it_explains_what_is_missing_or_wrong(client, world):
    client.force_login(world.hank)
    data = pump_out(
        world.trap, manifest_number="", gallons_removed="-3", fog_inches="1.234", solids_inches="-1"
    )
    html = client.post(SUBMIT, data).content.decode()
    assert "This field is required." in html
    assert "Gallons removed cannot be negative: give 0 or more." in html
    assert "Solids depth before pumping cannot be negative: give 0 or more." in html
    assert "Ensure that there are no more than 2 decimal places." in html
    assert not Service.objects.filter(manifest_number="CP-900").exists()


def test_it_refuses_a_date_in_the_future(client, world):
    client.force_login(world.hank)
    response = client.post(SUBMIT, pump_out(world.trap, date="2025-07-01"))
    assert response.status_code == 400
    assert "2025-07-01 is in the future." in response.content.decode()


def test_it_refuses_a_date_before_the_haulers_contract(client, world):
    client.force_login(world.hank)
    response = client.post(SUBMIT, pump_out(world.trap, date="2010-06-01"))
    assert "Pier Taqueria was not a customer of Coastal Pumping on 2010-06-01." in (
        response.content.decode()
    )


def test_it_answers_404_for_a_non_customers_establishment(client, world):
    client.force_login(world.hank)
    assert client.get("/portal/hauler/customers/FSE-7/pump-out/").status_code == 404


def test_it_answers_404_for_a_non_customers_device(client, world):
    client.force_login(world.hank)
    grills = world.grill.devices.get()
    assert client.get(SUBMIT, {"device": grills.pk}).status_code == 404
    assert client.post(SUBMIT, pump_out(grills)).status_code == 404
    assert not Service.objects.filter(manifest_number="CP-900").exists()


def test_it_answers_404_for_another_agencys_device(client, world):
    client.force_login(world.hank)
    response = client.post(SUBMIT, pump_out(world.town_fse.devices.get()))
    assert response.status_code == 404


def test_it_answers_404_for_a_removed_device(client, world):
    client.force_login(world.hank)
    removed = world.pier.devices.get(code="GI-0")
    assert client.post(SUBMIT, pump_out(removed)).status_code == 404


def test_it_is_not_a_page_for_staff(client, world):
    client.force_login(staff_user("ines", world.sc))
    assert client.get(SUBMIT).status_code == 404

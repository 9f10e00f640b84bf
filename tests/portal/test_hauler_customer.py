"""A customer's page in the hauler portal: its devices and the hauler's own pump-outs there,
never another hauler's, nor the establishment's findings or inspections."""

import pytest

from fogkeeper.maintenance.services import service_dispute
from tests.compliance.records import AS_OF

from . import haulers
from .haulers import PIER, staff_user

pytestmark = pytest.mark.django_db
clock, world = haulers.clock, haulers.world  # the fixtures


def test_it_shows_the_customers_devices(client, world):
    client.force_login(world.hank)
    html = client.get(PIER).content.decode()
    assert "<strong>GI-1</strong>: Grease interceptor" in html
    assert "<strong>GT-2</strong>: Grease trap" in html
    assert "<strong>GI-0</strong>" not in html  # removed in 2012


def test_it_shows_the_haulers_own_pump_outs_and_no_other_haulers(client, world):
    client.force_login(world.hank)
    html = client.get(PIER).content.decode()
    assert "FSE-0042-M1" in html  # Coastal's
    assert "FSE-0042-M2" not in html  # Rogue Vac's
    assert "Rogue Vac" not in html


def test_it_shows_no_findings_or_inspections(client, world):
    client.force_login(world.hank)
    html = client.get(PIER).content.decode()
    assert world.pier.findings.filter(open=True).exists()
    for private in (
        "overdue",
        "Finding",
        "I-55",
        "Inspection",
        "non compliant",
        "Not in compliance",
    ):
        assert private not in html


def test_it_marks_a_disputed_pump_out(client, world):
    service = world.coastal.services.get(manifest_number="FSE-0042-M1")
    service_dispute(
        service=service, reason="No truck seen", raised_on=AS_OF, actor=staff_user("ines", world.sc)
    )
    client.force_login(world.hank)
    html = client.get(PIER).content.decode()
    assert "Disputed</strong> by the agency since 2025-06-30" in html
    assert "No truck seen" not in html


def test_it_answers_404_for_a_non_customer(client, world):
    client.force_login(world.hank)
    assert client.get("/portal/hauler/customers/FSE-7/").status_code == 404


def test_it_answers_404_for_an_establishment_that_does_not_exist(client, world):
    client.force_login(world.hank)
    assert client.get("/portal/hauler/customers/NOPE/").status_code == 404

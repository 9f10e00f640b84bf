"""Recording in a real browser: a pump-out, from the establishment page."""

import pytest
from playwright.sync_api import expect

from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import GreaseControlDevice
from tests.compliance.records import make_pier_taqueria
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_inspector_records_a_pump_out(page, live_server, sign_in, screenshot):
    sc, _ = two_agencies()
    make_pier_taqueria(sc)
    make_user("ines", sc)
    trap = GreaseControlDevice.objects.get(code="GT-2")
    sign_in(page, "ines")

    page.goto(f"{live_server.url}/establishments/FSE-0042/")
    page.get_by_role("link", name="Record a pump-out").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Record a pump-out")
    page.get_by_label("Device").select_option(str(trap.pk))
    page.get_by_label("Manifest number").fill("M-900")
    page.get_by_label("Date of the pump-out").fill("2025-06-20")
    page.get_by_label("Gallons removed").fill("40")
    screenshot(page, "record-pump-out")
    page.get_by_role("button", name="Record").click()

    expect(page).to_have_url(f"{live_server.url}/establishments/FSE-0042/")
    expect(page.get_by_role("cell", name="GT-2 pumped out, manifest M-900")).to_be_visible()
    service = Service.objects.get(manifest_number="M-900")
    assert (service.device, str(service.date), service.gallons_removed) == (trap, "2025-06-20", 40)

"""Recording in a real browser, from the establishment page: a pump-out, and a sample of the
discharge over its permit's limit."""

import pytest
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.inspections.models import Sample
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import GreaseControlDevice
from tests.browser.test_lookups import choose
from tests.compliance.records import AS_OF, make_pier_taqueria, make_vista_hermosa_ramen
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
    choose(page, "Hauler", "coastal", "Coastal Pumping (FSE-0042-H1)")
    page.get_by_label("Manifest number").fill("M-900")
    page.get_by_label("Date of the pump-out").fill("2025-06-20")
    page.get_by_label("Gallons removed").fill("40")
    screenshot(page, "record-pump-out")
    page.get_by_role("button", name="Record").click()

    expect(page).to_have_url(f"{live_server.url}/establishments/FSE-0042/")
    expect(page.get_by_role("cell", name="GT-2 pumped out, manifest M-900")).to_be_visible()
    service = Service.objects.get(manifest_number="M-900")
    assert (service.device, str(service.date), service.gallons_removed) == (trap, "2025-06-20", 40)


def test_an_inspector_records_a_sample_over_the_permits_limit_and_sees_the_violation(
    page, live_server, sign_in, screenshot
):
    sc, _ = two_agencies()
    make_vista_hermosa_ramen(sc)
    sweep_agency(sc, as_of=AS_OF)
    make_user("ines", sc)
    sign_in(page, "ines")

    page.goto(f"{live_server.url}/establishments/FSE-0077/")
    violation = page.get_by_role("row", name="Sample above its discharge limit")
    expect(page.get_by_role("heading", name="Samples of the discharge")).to_be_visible()
    expect(violation).to_have_count(0)
    page.get_by_role("link", name="Record a sample").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Record a sample")
    page.get_by_label("Sample number").fill("S-900")
    page.get_by_label("Date of the sample").fill("2025-06-20")
    page.get_by_label("Device sampled").select_option(label="The establishment's discharge")
    page.get_by_label("Parameter").fill("oil_and_grease")
    page.get_by_label("Value").fill("185")
    page.get_by_label("Unit").fill("mg/L")
    page.get_by_label("Method").fill("EPA 1664")
    screenshot(page, "record-sample")
    page.get_by_role("button", name="Record").click()

    expect(page).to_have_url(f"{live_server.url}/establishments/FSE-0077/")
    expect(violation).to_contain_text(
        "Sample S-900 of FSE-0077 on 2025-06-20: oil_and_grease 185 mg/L"
    )
    expect(page.locator("#samples").get_by_role("row", name="S-900")).to_contain_text(
        "Over the limit of 100 mg/L (Discharge Permit FSE-0077-P1)"
    )
    screenshot(page, "establishment-sample-over-limit")
    sample = Sample.objects.get(code="S-900")
    assert (sample.parameter, sample.value, sample.unit, sample.device) == (
        "oil_and_grease",
        185,
        "mg/L",
        None,
    )

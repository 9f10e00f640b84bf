"""The equipment registry in a real browser: a manager installs an interceptor with its
design data, replaces a device and finds the old one under removed devices, registers a
hauler with its licence expiry and starts a contract; the Town's manager sets a frequency
(one the ordinance does not allow refused with its section); an inspector hires an employee
and records another leaving. Each new page at desktop and phone width, checked by axe-core."""

import re

import pytest
from playwright.sync_api import expect

from fogkeeper.registry.models import GreaseControlDevice, Hauler, ServiceContract
from fogkeeper.training.models import Employee
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import serious_violations
from tests.compliance.records import make_pier_taqueria
from tests.records import make_device, make_employee, make_establishment
from tests.web.people import PASSWORD, make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}


def label(text: str):
    return re.compile(rf"^{re.escape(text)}:?$")


@pytest.fixture
def look(screenshot):
    """Screenshots of the page at desktop and phone width, and axe-core finds nothing serious."""

    def check(page, name: str) -> None:
        screenshot(page, f"{name}")
        page.set_viewport_size(PHONE)
        screenshot(page, f"{name}-phone")
        page.set_viewport_size(DESKTOP)
        found = serious_violations(page)
        assert found == [], f"{name}: " + "\n".join(found)

    return check


def test_a_manager_installs_replaces_and_contracts(page, live_server, sign_in, look):
    sc, _ = two_agencies()
    make_pier_taqueria(sc)
    make_user("maria", sc, role="manager")
    page.set_viewport_size(DESKTOP)
    sign_in(page, "maria")

    page.goto(f"{live_server.url}/establishments/FSE-0042/")
    page.get_by_role("link", name="Install a device").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Install a grease control device")
    page.get_by_label(label("Device number")).fill("GI-3")
    page.get_by_label(label("Kind of device")).select_option("interceptor")
    page.get_by_label(label("Installed on")).fill("2026-11-02")
    page.get_by_label(label("Capacity (gallons)")).fill("-10")
    page.get_by_label(label("Design depth (inches)")).fill("48")
    page.get_by_label(label("Compartments")).fill("2")
    page.get_by_label(label("Manhole diameter (inches)")).fill("24")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Must be more than 0 (got -10")).to_be_visible()
    expect(page.get_by_label(label("Device number"))).to_have_value("GI-3")
    look(page, "registry-device-install-refused")
    page.get_by_label(label("Capacity (gallons)")).fill("1000")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("GI-3: Grease interceptor")
    expect(page.locator("#design")).to_contain_text("1000")
    look(page, "registry-device")

    gi1 = GreaseControlDevice.objects.get(code="GI-1")
    page.goto(f"{live_server.url}/establishments/FSE-0042/")
    page.get_by_role("link", name="Replace GI-1").click()
    page.get_by_label(label("Replaced on")).fill("2026-11-15")
    page.get_by_label(label("Number of the new device")).fill("GI-4")
    page.get_by_label(label("Capacity (gallons)")).fill("1200")
    look(page, "registry-device-replace")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("GI-4: Grease interceptor")
    page.get_by_role("link", name="Pier Taqueria (FSE-0042)").click()
    removed = page.locator("#removed-devices")
    expect(removed).to_contain_text(
        "GI-1: Grease interceptor, installed 2012-03-20, removed 2026-11-15"
    )
    look(page, "registry-establishment-devices")
    gi1.refresh_from_db()
    assert str(gi1.removed_on) == "2026-11-15"

    page.goto(f"{live_server.url}/registry/haulers/")
    look(page, "registry-hauler-list")
    page.get_by_role("link", name="Register a hauler").click()
    page.get_by_label(label("Hauler number")).fill("H-9")
    page.get_by_label(label("Name")).fill("Orange Pumping")
    page.get_by_label(label("Licence number")).fill("L-9")
    page.get_by_label(label("Licence expires on")).fill("2027-06-30")
    look(page, "registry-hauler-register")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#licence")).to_contain_text("2027-06-30")
    page.get_by_role("link", name="Start a service contract").click()
    page.get_by_label(label("Establishment number")).fill("FSE-0042")
    page.get_by_label(label("Contract in force since")).fill("2026-11-01")
    look(page, "registry-contract-start")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#customers")).to_contain_text("Pier Taqueria (FSE-0042)")
    look(page, "registry-hauler")
    contract = ServiceContract.objects.get(hauler=Hauler.objects.get(code="H-9"))
    assert str(contract.since) == "2026-11-01" and contract.until is None


def test_the_towns_manager_sets_a_frequency_the_ordinance_allows(page, live_server, sign_in, look):
    _, town = two_agencies()
    fse = make_establishment(town, code="T-1", name="Desert Diner", opened_on="2023-05-01")
    device = make_device(fse, "GI-1", installed_on="2023-05-01")
    make_user("fran", town, role="manager")
    page.set_viewport_size(DESKTOP)
    sign_in(page, "fran")

    page.goto(f"{live_server.url}/establishments/T-1/")
    page.get_by_role("link", name="Service frequency of GI-1").click()
    field = page.get_by_label(label("Service frequency (days)"))
    field.fill("45")
    page.get_by_role("button", name="Save").click()
    expect(
        page.get_by_text(re.compile(r"45 days is not a frequency .*\(10\.02\.130\(B\)\)"))
    ).to_be_visible()
    expect(field).to_have_value("45")
    look(page, "registry-device-frequency-refused")
    field.fill("60")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#frequency")).to_have_text("every 60 days (set for this device)")
    device.refresh_from_db()
    assert device.service_frequency_days == 60


def test_an_inspector_hires_one_employee_and_records_another_leaving(page, live_server, look):
    sc, _ = two_agencies()
    fse = make_establishment(sc, code="FSE-0300", name="Harbor Grill", opened_on="2020-01-01")
    make_employee(fse, "E-1", name="Luis Ortega", hired_on="2024-03-01")
    make_user("ines", sc, role="inspector")
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("ines")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))  # wherever an inspector lands

    page.goto(f"{live_server.url}/establishments/FSE-0300/")
    page.get_by_role("link", name="Employees", exact=True).click()
    page.get_by_role("link", name="Hire an employee").click()
    page.get_by_label(label("Employee number")).fill("E-2")
    page.get_by_label(label("Name")).fill("Rosa Diaz")
    page.get_by_label(label("Hired on")).fill("2026-11-02")
    look(page, "registry-employee-hire")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#current")).to_contain_text("Rosa Diaz")

    luis = page.locator("#current tr", has_text="Luis Ortega")
    luis.get_by_role("link", name=re.compile("^Record leaving")).click()
    page.get_by_label(label("Left on")).fill("2026-11-20")
    look(page, "registry-employee-leave")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#former")).to_contain_text("Luis Ortega")
    look(page, "registry-employees")
    assert str(Employee.objects.get(code="E-1").left_on) == "2026-11-20"

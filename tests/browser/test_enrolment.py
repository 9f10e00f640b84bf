"""Enrolment in a real browser: a hauler company asks San Clemente for an account, the manager
approves it (registering the hauler and its service contract with Pier Taqueria), the emailed
link sets a password, and the hauler's first manifest is accepted and shows on the staff
establishment page; an operator's request is rejected with a reason; an operator keeps its
employee roster and files a training with its signed log."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from fogkeeper.maintenance.models import Service
from fogkeeper.portal.models import EnrolmentRequest
from fogkeeper.registry.models import GreaseControlDevice, Operator
from fogkeeper.training.models import Employee, Training
from tests.compliance.records import make_pier_taqueria
from tests.portal.conftest import member
from tests.web.people import make_user, two_agencies

from .conftest import PHONE, sign_out
from .test_accessibility import serious_violations

pytestmark = pytest.mark.django_db(transaction=True)
LABEL = r"^{}:?$"


def label(page, text: str):
    return page.get_by_label(re.compile(LABEL.format(re.escape(text))))


def look(page, screenshot, name: str) -> None:
    """A screenshot at desktop and phone width, and no serious accessibility violation."""
    assert serious_violations(page) == []
    screenshot(page, name)
    size = page.viewport_size
    page.set_viewport_size(PHONE)
    screenshot(page, f"{name}-phone")
    page.set_viewport_size(size)


@pytest.fixture
def san_clemente():
    sc, _ = two_agencies()
    make_pier_taqueria(sc)
    make_user("maria", sc, role="manager")
    return sc


def ask(page, live_server, **fields) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("link", name="Ask for an account").click()
    page.get_by_role("link", name="City of San Clemente").click()
    page.get_by_text(fields.pop("kind"), exact=True).click()
    for name, value in fields.items():
        label(page, name).fill(value)


def test_a_haulers_sign_up_is_approved_and_its_first_manifest_accepted(
    page, live_server, sign_in, screenshot, san_clemente
):
    ask(
        page,
        live_server,
        kind="Grease hauler",
        **{
            "Business name": "Blue Wave Pumping",
            "Your name": "Hana Ito",
            "Email": "hana@bluewave.example",
            "Phone": "949-555-0110",
            "Mailing address": "1 Dock St, San Clemente",
            "Service area": "San Clemente",
            "Hauler licence number": "LIC-77",
            "Licence expiry date": "2027-03-31",
        },
    )
    look(page, screenshot, "enrol-form")
    page.get_by_role("button", name="Send the request").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Request sent")
    look(page, screenshot, "enrol-sent")

    sign_in(page, "maria")
    page.get_by_role("navigation", name="Main").get_by_role(
        "link", name=re.compile("^People")
    ).click()
    page.get_by_role("link", name=re.compile("^Account requests")).click()
    expect(page.get_by_role("row", name=re.compile("Blue Wave Pumping"))).to_contain_text(
        "Grease hauler"
    )
    look(page, screenshot, "enrolment-requests")
    page.get_by_role("link", name="Blue Wave Pumping").click()
    label(page, "Code of the new hauler").fill("H-BW")
    label(page, "Customers").fill("FSE-0042")
    label(page, "Contracts start on").fill("2026-11-01")
    look(page, screenshot, "enrolment-request")
    page.get_by_role("button", name="Approve").click()
    expect(page.get_by_role("status")).to_contain_text("Blue Wave Pumping approved")
    sign_out(page)

    link = re.search(r"https?://\S+/accounts/reset/\S+", mail.outbox[-1].body).group(0)
    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text("Set your password")
    look(page, screenshot, "password-set")
    label(page, "New password").fill("blue wave pumps 2026")
    label(page, "New password confirmation").fill("blue wave pumps 2026")
    page.get_by_role("button", name="Set the password").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Password set")
    look(page, screenshot, "password-set-done")

    page.get_by_role("link", name="Sign in").last.click()
    page.get_by_label("Username").fill("hana@bluewave.example")
    page.get_by_label("Password").fill("blue wave pumps 2026")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your customers")
    trap = GreaseControlDevice.objects.get(establishment__code="FSE-0042", code="GT-2")
    page.get_by_role("link", name="Submit a pump-out for Pier Taqueria").click()
    page.get_by_label("Device").select_option(str(trap.pk))
    page.get_by_label("Manifest number").fill("BW-1")
    page.get_by_label("Date of the pump-out").fill("2026-11-20")
    page.get_by_label("Gallons removed").fill("40")
    page.get_by_role("button", name="Submit").click()
    expect(page.get_by_role("status")).to_contain_text("Manifest BW-1 recorded")
    assert Service.objects.get(manifest_number="BW-1").hauler.code == "H-BW"
    sign_out(page)

    sign_in(page, "maria")
    page.goto(f"{live_server.url}/establishments/FSE-0042/")
    expect(page.get_by_text(re.compile("BW-1")).first).to_be_visible()


def test_an_operators_request_is_rejected_with_a_reason(
    page, live_server, sign_in, screenshot, san_clemente
):
    ask(
        page,
        live_server,
        kind="FSE operator",
        **{
            "Business name": "Not Really Foods",
            "Your name": "Nora Blake",
            "Email": "nora@example.org",
            "Phone": "949-555-0130",
            "Mailing address": "3 Main St",
            "Establishments you run": "Pier Taqueria, 101 Avenida Del Mar",
        },
    )
    page.get_by_role("button", name="Send the request").click()
    sign_in(page, "maria")
    page.goto(f"{live_server.url}/account-requests/")
    page.get_by_role("link", name="Not Really Foods").click()
    label(page, "Reason").fill("Pier Taqueria is run by Harbor Eats Inc.")
    page.get_by_role("button", name="Reject").click()
    expect(page.get_by_role("status")).to_contain_text("Not Really Foods's request rejected")
    assert EnrolmentRequest.objects.get(email="nora@example.org").status == "rejected"
    assert "run by Harbor Eats Inc." in mail.outbox[-1].body


def test_an_operator_adds_an_employee_and_files_a_training_with_its_signed_log(
    page, live_server, screenshot, san_clemente, tmp_path, settings
):
    settings.MEDIA_ROOT = tmp_path
    operator = Operator.objects.get(agency=san_clemente, name="Harbor Eats Inc")
    member("olive", san_clemente, "operator", operator=operator)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{live_server.url}/portal/operator/FSE-0042/")
    page.get_by_role("link", name=re.compile("^Employees")).click()
    look(page, screenshot, "operator-employees")
    page.get_by_role("link", name="Add an employee").click()
    label(page, "Name").fill("Rita Vega")
    label(page, "Hired on").fill("2026-11-15")
    page.get_by_role("button", name="File").click()
    expect(page.get_by_role("status")).to_contain_text("Rita Vega added to the roster")
    assert Employee.objects.filter(name="Rita Vega", establishment__code="FSE-0042").exists()

    page.goto(f"{live_server.url}/portal/operator/FSE-0042/training/")
    label(page, "Date of the training").fill("2026-11-20")
    page.get_by_label("Rita Vega attended").check()
    page.get_by_label("Rita Vega signed the log").check()
    log = tmp_path / "log.pdf"
    log.write_bytes(b"%PDF-1.4 signed attendance log")
    label(page, "Signed attendance log").set_input_files(str(log))
    page.get_by_role("button", name="File the training").click()
    expect(page.get_by_role("status")).to_contain_text("and its signed log")
    assert Training.objects.get(date="2026-11-20").log

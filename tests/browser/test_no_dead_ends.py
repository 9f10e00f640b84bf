"""No dead ends (issue 39, item 6), done in a browser at desktop and phone width: the manager
approves a new business's account request registering its establishment in the same step;
a permit application lacking required items is approved only on an override with its
reason; the operator downloads its invoice as a PDF and reads how to pay."""

import re
from datetime import date, datetime
from decimal import Decimal
from io import BytesIO
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import expect
from pypdf import PdfReader

from fogkeeper.billing.services import invoice_issue
from fogkeeper.permits.models import Permit
from fogkeeper.permits.services import permit_application_submit
from fogkeeper.portal.enrolment import enrolment_request_submit
from fogkeeper.registry.models import FoodServiceEstablishment, Operator
from fogkeeper.web.models import Membership
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import serious_violations
from tests.compliance.records import make_pier_taqueria
from tests.portal.conftest import member
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

NOON = datetime(2025, 6, 30, 12, tzinfo=ZoneInfo("America/Los_Angeles"))
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": PHONE}


@pytest.fixture
def world():
    with time_machine.travel(NOON):
        sc, _ = two_agencies()
        make_pier_taqueria(sc)
        make_user("maria", sc, role="manager")
        yield sc


def label(text: str):
    return re.compile(rf"^{re.escape(text)}:?$")


def at(page, size: str):
    page.set_viewport_size(SIZES[size])


def look(page, screenshot, name: str) -> None:
    assert serious_violations(page) == []
    screenshot(page, name)


@pytest.mark.parametrize("size", SIZES)
def test_a_new_business_is_approved_with_its_establishment_registered(
    page, live_server, world, sign_in, screenshot, size
):
    with time_machine.travel(NOON):
        req = enrolment_request_submit(
            agency=world,
            kind="operator",
            business_name="Taco Loco LLC",
            contact_name="Lupe Ruiz",
            email="lupe@tacoloco.example",
            phone="949-555-0120",
            mailing_address="PO Box 9, San Clemente",
            establishments="Taco Loco, 12 Main St",
        )
        at(page, size)
        sign_in(page, "maria")
        page.goto(f"{live_server.url}/account-requests/{req.pk}/")
        expect(page.get_by_label(label("Register this establishment"))).to_be_checked()
        expect(page.get_by_label(label("Its establishment number"))).to_have_value("FSE-0043")
        expect(page.get_by_label(label("Its name"))).to_have_value("Taco Loco")
        expect(page.get_by_label(label("Its street address"))).to_have_value("12 Main St")
        look(page, screenshot, f"enrolment-register-establishment-{size}")
        page.get_by_role("button", name="Approve", exact=True).click()
        expect(page.locator("body")).to_contain_text("Taco Loco LLC approved")
        fse = FoodServiceEstablishment.objects.get(agency=world, code="FSE-0043")
        assert fse.current_tenure().operator == Membership.objects.get(role="operator").operator


@pytest.mark.parametrize("size", SIZES)
def test_an_incomplete_application_is_approved_only_on_an_override_with_its_reason(
    page, live_server, world, sign_in, screenshot, size
):
    with time_machine.travel(NOON):
        grill = make_establishment(world, "FSE-0100", name="Harbor Grill", operator="Grill LLC")
        application = permit_application_submit(
            establishment=grill,
            submitted_on=date(2025, 6, 2),
            applicant_name="Grill LLC",
            applicant_address="200 Avenida Del Mar",
        )
        at(page, size)
        sign_in(page, "maria")
        page.goto(f"{live_server.url}/permits/applications/{application.pk}/")
        page.get_by_label(label("Permit number")).fill("FSE-0100-P1")
        page.get_by_label(label("Expires on")).fill("2030-06-29")
        page.get_by_role("button", name="Approve and issue").click()
        expect(page.locator("body")).to_contain_text("lacks what the ordinance requires")
        look(page, screenshot, f"permit-application-missing-refused-{size}")
        assert not Permit.objects.filter(number="FSE-0100-P1").exists()
        page.get_by_text(re.compile("^Approve although the application lacks")).click()
        page.get_by_label(label("Why it is approved without them")).fill(
            "Contact given by phone; form to follow"
        )
        page.get_by_role("button", name="Approve and issue").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Discharge Permit FSE-0100-P1")
        expect(page.locator("#application")).to_contain_text(
            "by override, without emergency contact"
        )
        expect(page.locator("#application")).to_contain_text("Contact given by phone")
        look(page, screenshot, f"permit-approved-by-override-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_the_operator_downloads_its_invoice_and_reads_how_to_pay(
    page, live_server, world, sign_in, screenshot, size, tmp_path
):
    with time_machine.travel(NOON):
        pier = FoodServiceEstablishment.objects.get(code="FSE-0042")
        invoice_issue(
            establishment=pier,
            code="INV-8",
            kind="fee",
            noticed_on=date(2025, 6, 20),
            lines=[{"description": "Reinspection", "amount": Decimal("100.00")}],
        )
        member(
            "olive",
            world,
            "operator",
            operator=Operator.objects.get(agency=world, name="Harbor Eats Inc"),
        )
        at(page, size)
        sign_in(page, "olive")
        page.goto(f"{live_server.url}/portal/operator/FSE-0042/enforcement/")
        invoice = page.locator("#invoice-INV-8")
        expect(invoice).to_contain_text("due by 2025-07-21")
        expect(page.locator("#how-to-pay")).to_contain_text("payable to City of San Clemente")
        look(page, screenshot, f"operator-invoice-{size}")
        with page.expect_download() as info:
            invoice.get_by_role("link", name="Download invoice INV-8 (PDF)").click()
        path = tmp_path / "invoice.pdf"
        info.value.save_as(path)
        text = " ".join(p.extract_text() for p in PdfReader(BytesIO(path.read_bytes())).pages)
        text = " ".join(text.split())
        assert "Invoice INV-8" in text and "Reinspection" in text and "$100.00" in text
        assert "Due July 21, 2025" in text and "How to pay" in text

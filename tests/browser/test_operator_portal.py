"""The operator's portal in a real browser: an operator signs in, sees its findings and files
a BMP training, which closes the new hire's finding."""

import pytest
import time_machine
from playwright.sync_api import expect

from fogkeeper.training.models import Attendance
from tests.web.people import PASSWORD

from .conftest import NOON

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_operator_sees_its_findings_and_files_a_training(page, live_server, olive, screenshot):
    with time_machine.travel(NOON):
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill("olive")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{live_server.url}/portal/operator/")
        page.get_by_role("link", name="Pier Taqueria").click()

        findings = page.locator("#findings")
        expect(findings).to_contain_text("New employee not trained in BMPs")
        expect(
            findings.get_by_role("row", name="New employee not trained in BMPs")
        ).to_contain_text("Rosa Diaz")
        screenshot(page, "operator-establishment")

        page.get_by_role("link", name="File a BMP training").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("File a BMP training")
        page.get_by_label("Date of the training").fill("2025-06-20")
        page.get_by_label("Trainer").fill("Chef Lu")
        page.get_by_label("Rosa Diaz attended").check()
        page.get_by_label("Rosa Diaz signed the log").check()
        screenshot(page, "operator-training")
        page.get_by_role("button", name="File the training").click()

        expect(page).to_have_url(f"{live_server.url}/portal/operator/FSE-0042/")
        expect(page.get_by_role("status")).to_contain_text("Training of 2025-06-20 filed")
        expect(page.locator("#findings")).not_to_contain_text("New employee not trained in BMPs")
        expect(page.locator("#trainings")).to_contain_text("Rosa Diaz")
    attendance = Attendance.objects.get(employee__name="Rosa Diaz")
    assert attendance.signed and str(attendance.training.date) == "2025-06-20"

"""The auditor produces the year's annual report without the command line: opens the report,
chooses 2026, reads the figures and their charts, and downloads the PDF and the workbook."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from openpyxl import load_workbook
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.browser.test_incidents import DESKTOP, check_page, sign_in
from tests.reporting.test_annual import build_program
from tests.web.people import make_user

pytestmark = pytest.mark.django_db(transaction=True)

NOON = datetime(2026, 6, 30, 12, tzinfo=ZoneInfo("America/Los_Angeles"))


def test_the_auditor_downloads_the_annual_report_as_pdf_and_workbook(
    page, live_server, screenshot, tmp_path
):
    refused = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    with time_machine.travel(NOON):
        program = build_program()
        make_user("audrey", program.agency, role="auditor")
        page.set_viewport_size(DESKTOP)
        sign_in(page, live_server, "audrey")

        page.goto(f"{live_server.url}/reports/annual/?year=2025")
        page.get_by_role("textbox", name="Year").fill("2026")
        page.get_by_role("button", name="Show the year").click()
        expect(page.get_by_role("heading", level=1)).to_have_text(
            "Annual report of the FOG program, 2026"
        )
        expect(page.locator("#value-pump_outs")).to_have_text("2")
        expect(page.get_by_role("img", name="Spills in 2026 by category")).to_be_visible()
        expect(page.locator("#table-spills_by_category")).to_contain_text("Category 2")
        check_page(page, screenshot, "annual-report")

        with page.expect_download() as info:
            page.get_by_role("link", name="Download the PDF").click()
        pdf = info.value
        assert pdf.suggested_filename == "SC-annual-report-2026.pdf"
        pdf.save_as(tmp_path / "report.pdf")
        text = "".join(p.extract_text() for p in PdfReader(tmp_path / "report.pdf").pages)
        assert "Pump-outs recorded in 2026" in text

        with page.expect_download() as info:
            page.get_by_role("link", name="Download the Excel workbook").click()
        book = info.value
        assert book.suggested_filename == "SC-annual-report-2026.xlsx"
        book.save_as(tmp_path / "report.xlsx")
        figures = load_workbook(tmp_path / "report.xlsx")["Figures"]
        values = {row[0]: row[1] for row in figures.iter_rows(values_only=True) if row}
        assert values["Pump-outs recorded in 2026"] == 2
    assert refused == []

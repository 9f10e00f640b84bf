"""The auditor reads the audit trail: one person's permit changes over a few weeks, then an
establishment's own trail opened from its page, downloaded as CSV."""

import csv
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from fogkeeper.audit.models import AuditEvent
from fogkeeper.audit.services import audit_record, snapshot
from tests.browser.test_incidents import DESKTOP, check_page, label, sign_in
from tests.records import make_device, make_establishment, make_permit
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)


def on(event: AuditEvent, day: str) -> None:
    at = datetime.fromisoformat(f"{day}T12:00").replace(tzinfo=ZoneInfo("America/Los_Angeles"))
    AuditEvent.objects.filter(pk=event.pk).update(at=at)


@pytest.fixture
def trail():
    sc, _ = two_agencies()
    mona = make_user("mona", sc, role="manager")
    mona.first_name, mona.last_name = "Mona", "Reyes"
    mona.save()
    ines = make_user("ines", sc, role="inspector")
    make_user("audrey", sc, role="auditor")
    pier = make_establishment(sc, code="SC-1", name="Pier Taqueria")
    dock = make_establishment(sc, code="SC-2", name="Dock Grill")
    permit = make_permit(pier, "DP-1", holder="Pier Foods LLC")
    before = snapshot(permit)
    permit.holder = "Harbor Group"
    permit.save()
    on(audit_record(action="permit.issue", obj=permit, actor=mona, before=None), "2026-03-02")
    on(audit_record(action="permit.modify", obj=permit, actor=mona, before=before), "2026-04-10")
    on(audit_record(action="device.install", obj=make_device(pier), actor=ines), "2026-04-11")
    on(audit_record(action="permit.issue", obj=make_permit(dock, "DP-2"), actor=mona), "2025-12-01")


def test_the_auditor_filters_the_trail_and_downloads_an_establishments_own(
    page, live_server, screenshot, trail, tmp_path
):
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server, "audrey")
    page.goto(f"{live_server.url}/audit/")
    # the four rows above and the three people's memberships, made (by the system) first
    expect(page.locator("#audit caption")).to_have_text("7 audit rows")

    page.get_by_label(label("Who")).select_option(label="Mona Reyes")
    page.get_by_label("What kind of change").select_option(label="Discharge Permit")
    page.get_by_label(label("From")).fill("2026-03-01")
    page.get_by_label(label("To")).fill("2026-04-30")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("#audit caption")).to_have_text("2 audit rows")
    expect(page.locator("#audit")).to_contain_text("Pier Foods LLC → Harbor Group")
    expect(page.locator("#audit")).not_to_contain_text("Dock Grill")
    expect(page.locator("#audit")).to_contain_text(
        "Changed a Discharge Permit DP-1 of Pier Taqueria (SC-1)"
    )
    technical = page.locator("#audit details").first
    expect(technical.get_by_text("permit.modify")).to_be_hidden()  # folded away
    check_page(page, screenshot, "audit")
    technical.get_by_text("Technical details").click()
    expect(technical.get_by_text("permit.modify")).to_be_visible()
    check_page(page, screenshot, "audit-technical-details")

    page.locator("#audit").get_by_role("link", name="Open Pier Taqueria (SC-1)").first.click()
    page.get_by_role("link", name="Audit trail").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Audit trail of Pier Taqueria")
    expect(page.locator("#audit caption")).to_have_text("3 audit rows")
    check_page(page, screenshot, "audit-establishment")

    with page.expect_download() as info:
        page.get_by_role("link", name="CSV").click()
    download = info.value
    assert download.suggested_filename == "san-clemente-SC-1-audit-trail.csv"
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    rows = list(csv.DictReader(path.open(encoding="utf-8-sig")))
    assert [r["Action"] for r in rows] == ["device.install", "permit.modify", "permit.issue"]
    assert {r["Establishment"] for r in rows} == {"SC-1"}

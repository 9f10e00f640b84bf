"""Inspections without signal (issue 27): the inspector downloads the day's route while online,
goes offline (`context.set_offline(True)`), reopens the field app from the service worker's
cache, fills two inspections with a photo and a signature, comes back online, and each is
stored once; a sync interrupted half-way (the second inspection stored but its answer lost)
is resumed, and each is still stored once; a conflict is shown, then sent deliberately."""

import io
from datetime import date

import pytest
from django.core import mail
from PIL import Image
from playwright.sync_api import expect

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.inspections.models import Inspection
from fogkeeper.registry.models import FoodServiceEstablishment, Operator
from tests.browser.conftest import PHONE, draw_signature
from tests.browser.test_accessibility import serious_violations
from tests.records import make_device, make_establishment, make_inspection
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)

AS_OF = date(2025, 6, 30)
DAY = AS_OF.isoformat()


def photo() -> dict:
    buf = io.BytesIO()
    Image.new("RGB", (64, 48), "#8a6d3b").save(buf, "PNG")
    return {"name": "trap.png", "mimeType": "image/png", "buffer": buf.getvalue()}


@pytest.fixture
def sc(settings, tmp_path):
    """Harbor Grill (an interceptor, its operator with an email address) and Quiet Cafe, both
    inspected a year before 2025-06-30 and due again."""
    settings.MEDIA_ROOT = tmp_path
    sc, _ = two_agencies()
    harbor = make_establishment(
        sc, code="FSE-Z", name="Harbor Grill", opened_on="2020-01-01", operator="Harbor Grill LLC"
    )
    Operator.objects.filter(name="Harbor Grill LLC").update(email="owner@harborgrill.example")
    make_device(harbor, "GI-1", design_depth_inches=48, installed_on="2020-01-01")
    make_inspection(harbor, "I-1", "2024-06-28", answers=[("bmp.spill_kit", False)])
    quiet = make_establishment(sc, code="FSE-Q", name="Quiet Cafe", opened_on="2020-01-01")
    make_inspection(quiet, "I-2", "2024-06-20")
    sweep_agency(sc, as_of=AS_OF)
    make_user("ines", sc)
    return sc


@pytest.fixture
def phone(browser):
    """A phone's browser; what its Content-Security-Policy refused must stay empty."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page, refused = context.new_page(), []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    yield context, page
    context.close()
    assert refused == []


def check(page, screenshot, name: str) -> None:
    screenshot(page, name)
    found = serious_violations(page)
    assert found == [], "\n".join(found)


def with_route_offline(page, context, live_server, sign_in, screenshot) -> None:
    """Signed in and online: the field list installs the app, the route is downloaded; then
    offline, the app is opened again from the service worker's cache."""
    sign_in(page, "ines")
    page.goto(f"{live_server.url}/inspections/field/?as_of={DAY}")
    page.get_by_role("link", name="Inspect offline: download the day's route").click()
    expect(page.locator("#field-app[data-ready]")).to_be_attached()
    expect(page.locator("#offline-ready")).to_have_text(
        "This page is kept on this device: it opens without a connection."
    )
    page.get_by_role("button", name="Download the day's route").click()
    expect(page.locator("#route-status")).to_contain_text(f"Route of {DAY} downloaded")
    expect(page.locator("#route-status")).to_contain_text("2 establishments")
    check(page, screenshot, "offline-route")
    context.set_offline(True)
    page.reload()
    expect(page.locator("#field-app[data-ready]")).to_be_attached()
    expect(page.locator("#connection-text")).to_contain_text("Offline")
    expect(page.locator("#route-stops > li")).to_have_count(2)


def sign(page) -> None:
    draw_signature(page, "#f-signature")


def inspect_harbor(page, screenshot=None) -> None:
    page.get_by_role("button", name="Inspect Harbor Grill").click()
    expect(page.get_by_role("heading", name="Inspection of Harbor Grill (FSE-Z)")).to_be_visible()
    page.locator("#check-bmp\\.spill_kit").get_by_text("Not compliant").click()
    page.get_by_label("FOG depth in GI-1 (in)").fill("6")
    page.get_by_label("Solids depth in GI-1 (in)").fill("7")
    expect(page.locator("fieldset.measure .figure")).to_have_text(
        "13 of 48 inches: 27.1%, over the 25% limit"
    )
    page.get_by_label("Photos").set_input_files([photo()])
    expect(page.locator("#f-photo-list")).to_contain_text("trap.png")
    page.get_by_label("Name of who signs").fill("Ana Ruiz")
    sign(page)
    if screenshot:
        check(page, screenshot, "offline-inspection")
    page.get_by_role("button", name="Keep the inspection to send").click()
    expect(page.locator("#queue-count")).to_have_text("1 inspection waiting to be sent.")


def inspect_quiet(page) -> None:
    page.get_by_role("button", name="Inspect Quiet Cafe").click()
    page.locator("#check-bmp\\.signage").get_by_text("Compliant", exact=True).click()
    page.get_by_label("Photos").set_input_files([photo()])
    page.get_by_role("button", name="Keep the inspection to send").click()
    expect(page.locator("#queue-count")).to_have_text("2 inspections waiting to be sent.")


def stored() -> list[tuple[str, str]]:
    """(establishment, inspection number) of each inspection sent from the field app."""
    rows = Inspection.objects.filter(client_id__isnull=False).order_by("establishment__code")
    return list(rows.values_list("establishment__code", "code"))


def test_two_inspections_recorded_offline_are_each_stored_once_back_online(
    phone, live_server, sign_in, screenshot, sc
):
    context, page = phone
    with_route_offline(page, context, live_server, sign_in, screenshot)
    inspect_harbor(page, screenshot)
    inspect_quiet(page)
    expect(page.locator("#send-status")).to_contain_text("sent when you are back online")
    check(page, screenshot, "offline-queue")
    assert stored() == []

    context.set_offline(False)  # the page sends what it kept as soon as it is back online
    expect(page.locator("#queue-count")).to_have_text("No inspection waiting to be sent.")
    expect(page.locator("#send-status")).to_have_text("2 inspections sent.")
    expect(page.locator("#sent")).to_contain_text("receipt emailed to owner@harborgrill.example")
    check(page, screenshot, "offline-sent")
    page.get_by_role("button", name="Send now").click()
    expect(page.locator("#send-status")).to_have_text("Nothing sent.")

    assert stored() == [
        ("FSE-Q", f"FSE-Q-{DAY.replace('-', '')}"),
        ("FSE-Z", f"FSE-Z-{DAY.replace('-', '')}"),
    ]
    harbor = Inspection.objects.get(client_id__isnull=False, establishment__code="FSE-Z")
    assert harbor.photos.count() == 1 and harbor.signed_by == "Ana Ruiz" and harbor.signature
    assert harbor.measurements.get().fog_inches == 6
    assert [m.to for m in mail.outbox] == [["owner@harborgrill.example"]]
    page.get_by_role("link", name=f"Inspection {harbor.code}", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Inspection {harbor.code}")
    expect(page.get_by_role("img", name="Signature of Ana Ruiz")).to_be_visible()
    check(page, screenshot, "offline-inspection-page")


def test_a_sync_interrupted_half_way_is_resumed_and_stores_each_inspection_once(
    phone, live_server, sign_in, screenshot, sc
):
    context, page = phone
    with_route_offline(page, context, live_server, sign_in, screenshot)
    inspect_harbor(page)
    inspect_quiet(page)
    posts = []

    def lose_the_second_answer(route):
        if route.request.method != "POST":
            return route.continue_()
        posts.append(route.request.url)
        if len(posts) == 1:
            return route.continue_()
        route.fetch()  # the server stores the second inspection...
        route.abort("connectionreset")  # ...and its answer never reaches the page

    context.route("**/inspections/field/sync/", lose_the_second_answer)
    context.set_offline(False)
    expect(page.locator("#send-status")).to_contain_text("The connection was lost")
    expect(page.locator("#queue-count")).to_have_text("1 inspection waiting to be sent.")
    assert len(stored()) == 2  # the page does not know the second reached the server
    check(page, screenshot, "offline-interrupted")

    context.unroute("**/inspections/field/sync/")
    page.get_by_role("button", name="Send now").click()
    expect(page.locator("#queue-count")).to_have_text("No inspection waiting to be sent.")
    expect(page.locator("#sent")).to_contain_text("stored (it had reached the server before)")
    screenshot(page, "offline-resumed")
    assert len(posts) == 2
    assert [code for code, _ in stored()] == ["FSE-Q", "FSE-Z"]


def test_an_establishment_changed_meanwhile_is_shown_and_sent_only_when_asked(
    phone, live_server, sign_in, screenshot, sc
):
    context, page = phone
    with_route_offline(page, context, live_server, sign_in, screenshot)
    inspect_harbor(page)
    FoodServiceEstablishment.objects.filter(code="FSE-Z").update(address="12 Harbor Way")

    context.set_offline(False)
    conflict = page.locator("#queue .queued.conflict")
    expect(conflict).to_contain_text("Address: was 101 Avenida Del Mar, now 12 Harbor Way.")
    expect(page.locator("#send-status")).to_have_text(
        "Nothing sent. 1 inspection not stored: your decision is needed, below."
    )
    assert stored() == []
    check(page, screenshot, "offline-conflict")
    code = f"FSE-Z-{DAY.replace('-', '')}"
    resend = f"Send inspection {code} against the record as it is now"
    page.get_by_role("button", name=resend).click()
    expect(page.locator("#queue-count")).to_have_text("No inspection waiting to be sent.")
    assert stored() == [("FSE-Z", code)]


def test_a_stop_inspected_is_shown_done_and_not_offered_again(
    phone, live_server, sign_in, screenshot, sc
):
    context, page = phone
    with_route_offline(page, context, live_server, sign_in, screenshot)
    inspect_harbor(page)
    harbor = page.locator("#stop-FSE-Z")
    code = f"FSE-Z-{DAY.replace('-', '')}"
    expect(harbor).to_contain_text("Done today")
    expect(harbor).to_contain_text(f"Inspected today: inspection {code}, waiting to be sent.")
    expect(page.get_by_role("button", name="Inspect Harbor Grill")).to_have_count(0)
    expect(page.get_by_role("button", name="Inspect Quiet Cafe")).to_be_visible()
    expect(page.locator("#route-status")).to_contain_text("2 establishments, 1 done today.")
    check(page, screenshot, "offline-route-done")

    context.set_offline(False)
    expect(page.locator("#send-status")).to_have_text("1 inspection sent.")
    expect(harbor).to_contain_text(f"Inspected today: inspection {code}, sent.")
    page.goto(f"{live_server.url}/inspections/field/offline/?as_of={DAY}")
    page.get_by_role("button", name="Download the day's route").click()  # the server's route
    expect(page.locator("#route-status")).to_contain_text(f"Route of {DAY} downloaded")
    expect(page.get_by_role("button", name="Inspect Quiet Cafe")).to_be_visible()
    expect(page.get_by_role("button", name="Inspect Harbor Grill")).to_have_count(0)

"""A shared phone (issue 39, item 2): what the field app keeps of one inspector (the route, the
inspections sent, the pages its service worker keeps) is deleted when they sign out; an
inspection not sent yet is sent first, or, offline, stays only on their say: locked with their
key for them alone (another inspector signed in on the same browser sees none of it), or
deleted. Signed out and offline, the field list shows no stop."""

import pytest
from playwright.sync_api import expect

from fogkeeper.inspections.models import Inspection
from tests.browser import test_offline
from tests.browser.conftest import PHONE
from tests.browser.test_offline import DAY, check, inspect_harbor, stored, with_route_offline
from tests.web.people import make_user

pytestmark = pytest.mark.django_db(transaction=True)

sc, phone = test_offline.sc, test_offline.phone  # the fixtures: Harbor Grill and Quiet Cafe due

# The pages (not the static files) the field app's service worker keeps in this browser.
PAGES = """async () => {
  const pages = [];
  for (const key of await caches.keys()) {
    const cache = await caches.open(key);
    for (const request of await cache.keys()) {
      const path = new URL(request.url).pathname;
      if (!path.startsWith("/static/")) pages.push(path);
    }
  }
  return pages;
}"""
# What the field app holds in this browser: the rows of each store, and its pages.
HELD = (
    """async () => {
  const db = await new Promise((resolve, reject) => {
    const req = indexedDB.open("fogkeeper-field");
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const held = {};
  for (const name of db.objectStoreNames) {
    held[name] = await new Promise((resolve) => {
      const req = db.transaction(name).objectStore(name).getAll();
      req.onsuccess = () => resolve(req.result);
    });
  }
  db.close();
  held.pages = await ("""
    + PAGES
    + """)();
  return held;
}"""
)


def held(page) -> dict:
    found = page.evaluate(HELD)
    counts = {name: len(rows) for name, rows in found.items() if name != "pages"}
    return {**counts, "pages": found["pages"], "readable": str(found.get("locked", []))}


def sign_out(page) -> None:
    page.get_by_role("button", name="Sign out ines").click()


def test_signed_out_offline_an_inspection_stays_locked_for_its_inspector_alone(
    phone, live_server, sign_in, screenshot, sc
):
    context, page = phone
    make_user("omar", sc)
    with_route_offline(page, context, live_server, sign_in, screenshot)
    inspect_harbor(page)

    sign_out(page)  # offline: it cannot be sent
    dialog = page.get_by_role("dialog", name="Signing out of this device")
    expect(dialog).to_contain_text("1 unsent inspection stays on this device: you are offline.")
    expect(dialog).to_contain_text("only you, signed in again in this browser, can open and send")
    check(page, screenshot, "signout-offline-phone")
    page.get_by_role("button", name="Sign out, keep it locked for me").click()
    expect(dialog).to_contain_text("You are offline: you are signed out as soon as the connection")
    now = held(page)
    assert (now["route"], now["sent"], now["queue"], now["keys"], now["locked"]) == (0, 0, 0, 0, 1)
    assert now["pages"] == [] and "Harbor" not in now["readable"]

    context.set_offline(False)  # the sign-out reaches the server
    page.wait_for_url(f"{live_server.url}/accounts/login/")
    context.set_offline(True)
    page.goto(f"{live_server.url}/inspections/field/?as_of={DAY}")
    expect(page.locator("body")).to_contain_text("This page was not kept on this device")
    expect(page.locator("body")).not_to_contain_text("Harbor Grill")
    screenshot(page, "signout-offline-field-list")
    context.set_offline(False)

    sign_in(page, "omar")  # another inspector, the same browser
    page.goto(f"{live_server.url}/inspections/field/offline/?as_of={DAY}")
    expect(page.locator("#field-app[data-ready]")).to_be_attached()
    expect(page.locator("#route-status")).to_have_text(
        "No route on this device yet: download it while you have a connection."
    )
    expect(page.locator("#queue-count")).to_have_text(
        "No inspection waiting to be sent. 1 inspection kept here by another person, locked: "
        "only they can send them."
    )
    expect(page.locator("main")).not_to_contain_text("Harbor Grill")
    assert held(page)["locked"] == 1 and stored() == []
    page.get_by_role("button", name="Sign out omar").click()
    page.wait_for_url(f"{live_server.url}/accounts/login/")

    sign_in(page, "ines")  # only she unlocks it, and it is sent
    page.goto(f"{live_server.url}/inspections/field/offline/?as_of={DAY}")
    expect(page.locator("#sent")).to_contain_text("Harbor Grill (FSE-Z)")
    expect(page.locator("#queue-count")).to_have_text("No inspection waiting to be sent.")
    assert [code for code, _ in stored()] == ["FSE-Z"]
    harbor = Inspection.objects.get(client_id__isnull=False)
    assert harbor.photos.count() == 1 and harbor.signed_by == "Ana Ruiz" and harbor.signature


def test_signed_out_online_an_unsent_inspection_is_sent_first(
    page, live_server, sign_in, screenshot, sc
):
    context = page.context
    with_route_offline(page, context, live_server, sign_in, screenshot)
    inspect_harbor(page)
    context.route("**/inspections/field/sync/", lambda route: route.abort("connectionrefused"))
    context.set_offline(False)
    expect(page.locator("#send-status")).to_contain_text("The connection was lost")
    context.unroute("**/inspections/field/sync/")

    sign_out(page)
    page.wait_for_url(f"{live_server.url}/accounts/login/")
    assert [code for code, _ in stored()] == ["FSE-Z"]
    now = held(page)
    assert (now["route"], now["sent"], now["queue"], now["keys"], now["locked"]) == (0, 0, 0, 0, 0)
    assert now["pages"] == []


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_unsent_inspections_are_deleted_on_their_inspectors_say(
    page, live_server, sign_in, screenshot, sc, viewport
):
    if viewport:
        page.set_viewport_size(viewport)
    context = page.context
    with_route_offline(page, context, live_server, sign_in, screenshot)
    inspect_harbor(page)
    sign_out(page)
    dialog = page.get_by_role("dialog", name="Signing out of this device")
    expect(dialog).to_be_visible()
    check(page, screenshot, f"signout-dialog-{'phone' if viewport else 'desktop'}")
    page.get_by_role("button", name="Delete 1 unsent inspection").click()
    expect(dialog).to_contain_text("This device no longer holds your route")
    now = held(page)
    assert (now["route"], now["sent"], now["queue"], now["keys"], now["locked"]) == (0, 0, 0, 0, 0)
    context.set_offline(False)
    page.wait_for_url(f"{live_server.url}/accounts/login/")
    assert stored() == []


def test_the_field_app_opened_by_another_person_keeps_nothing_of_the_last_readable(
    page, live_server, sign_in, screenshot, sc
):
    context = page.context
    make_user("omar", sc)
    with_route_offline(page, context, live_server, sign_in, screenshot)
    inspect_harbor(page)
    # Refused before the connection returns: else the page's own sending as it comes back
    # online could reach the server, be told she is signed out and take the page to the
    # sign-in form under the next inspector's sign-in.
    context.route("**/inspections/field/sync/", lambda route: route.abort("connectionrefused"))
    context.clear_cookies()  # her sign-in ends without the sign-out form (it expired)
    context.set_offline(False)

    sign_in(page, "omar")
    page.goto(f"{live_server.url}/inspections/field/offline/?as_of={DAY}")
    expect(page.locator("#field-app[data-ready]")).to_be_attached()
    expect(page.locator("#route-status")).to_contain_text("No route on this device yet")
    expect(page.locator("#queue-count")).to_contain_text(
        "1 inspection kept here by another person, locked: only they can send them."
    )
    expect(page.locator("main")).not_to_contain_text("Harbor Grill")
    now = held(page)
    assert (now["route"], now["sent"], now["queue"], now["keys"], now["locked"]) == (0, 0, 0, 0, 1)
    assert now["pages"] == ["/inspections/field/offline/"]  # his own, just opened
    screenshot(page, "shared-phone-next-inspector")


def test_signed_out_the_field_list_kept_for_offline_shows_no_stop(
    page, live_server, sign_in, screenshot, sc
):
    sign_in(page, "ines")
    page.goto(f"{live_server.url}/inspections/field/")  # installs the app: its pages are kept
    expect(page.locator("main")).to_contain_text("Harbor Grill")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    assert "/inspections/field/" in page.evaluate(PAGES)  # kept, for the inspector offline
    page.reload()
    sign_out(page)
    page.wait_for_url(f"{live_server.url}/accounts/login/")
    assert page.evaluate(PAGES) == []

    page.context.set_offline(True)
    page.goto(f"{live_server.url}/inspections/field/")
    expect(page.locator("body")).to_contain_text("This page was not kept on this device")
    expect(page.locator("body")).not_to_contain_text("Harbor Grill")

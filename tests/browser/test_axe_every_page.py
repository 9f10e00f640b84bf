"""axe-core finds no serious or critical violation on any page of the application: every page
of the access matrix (tests/access: its TABLE and each area's) that a role reads ("ok" for a
GET), loaded as that role in agency A of the matrix's world and read on a desktop and on a phone.

The world (both demo jurisdictions) is built once per module, committed for a server of the
module's own (pytest-django's live_server would empty the database after every test); each
test is one part of an area (an area of many pages is cut into PARTS at
collection, so that pytest-xdist spreads its pages over the workers), and each role keeps one
signed-in browser context, with axe-core put on each of its pages by the context."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from tests.access import areas
from tests.access.test_matrix import COLUMNS, TABLE, add_photos, build
from tests.access.world import ROLES, build_world

from .conftest import PHONE
from .served import served, signed_in_pages
from .test_accessibility import axe_source, serious_violations

SCREENS = {"desktop": {"width": 1280, "height": 900}, "phone": PHONE}
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
TABLES = {"core": TABLE, **{m.__name__.rpartition(".")[2]: m.TABLE for m in areas.modules()}}
# How many tests share an area's pages, part k reading its pages [k::n]: the areas of many pages
# (by their page count, each part keeping a few), so that no test takes far longer than the rest.
PARTS = {
    "core": 5,
    "registry_sites": 4,
    "registry_equipment": 3,
    "permits": 2,
    "incidents": 2,
    "billing": 2,
}
# The areas whose GETs answer no HTML page to agency A's people, which axe has nothing to read
# in: JSON only, or none under A's ordinance (it requires no reports; axe reads the required
# reports' pages on the Town in tests/browser/test_required_reports.py).
NO_PAGES = {"lookups", "required_reports"}
CASES = [(area, k) for area in TABLES if area not in NO_PAGES for k in range(PARTS.get(area, 1))]


def _rows(area: str) -> list[dict[str, str]]:
    lines = TABLES[area].strip().splitlines()
    return [dict(zip(COLUMNS, line.split(), strict=True)) for line in lines]


def _pages(area: str, side, client_of) -> list[tuple[str, str]]:
    """The (role, URL) of each HTML page a role reads in `area`: a GET that answers 200 with a
    page (an export, a redirect or an API's JSON is not one axe reads). A page whose markup is
    the same for two roles (but for the name signed in and the form's token) is read once: axe
    would find the same in it."""
    pages, seen = [], set()
    for row in _rows(area):
        if row["method"] != "GET" or row["name"].startswith(("api:", "admin:")):
            continue
        for role in ROLES:
            if row[role] != "ok":
                continue
            url = build(row["name"], side, role)[0]
            response = client_of[role].get(url)
            if response.status_code != 200 or "text/html" not in response["Content-Type"]:
                continue
            markup = TOKEN.sub("", response.content.decode())
            markup = markup.replace(side.users[role].get_username(), "")
            key = (url, hashlib.sha256(markup.encode()).hexdigest())
            if key not in seen:
                seen.add(key)
                pages.append((role, url))
    # Opened in the test's context (Playwright's greenlets give each its own): closed here,
    # else the end of the run could not drop the database.
    connection.close()
    return pages


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The matrix's world, committed, with a server over it, each area's pages (found when
    first asked for) and each role's session cookie."""
    with served(django_db_blocker) as server:
        side = build_world()["A"]
        add_photos({"A": side})
        clients = {}
        for role in ROLES:
            clients[role] = Client()
            clients[role].force_login(side.users[role])
        pages: dict[str, list[tuple[str, str]]] = {}

        def pages_of(area: str) -> list[tuple[str, str]]:
            """An area's pages, found when a test of the area first needs them: a worker
            finds only those of the areas it runs."""
            if area not in pages:
                pages[area] = _pages(area, side, clients)
            return pages[area]

        cookies = {r: c.cookies[settings.SESSION_COOKIE_NAME].value for r, c in clients.items()}
        yield server.url, pages_of, cookies


@pytest.fixture(scope="module")
def contexts(browser, world):
    """One signed-in browser context per role, opened when first needed."""
    url, _, cookies = world
    with signed_in_pages(browser, url, cookies, script=axe_source()) as page_of:
        yield page_of


def _read(page, url: str, screens: list[str]) -> list[str]:
    """Loads `url` on the first screen and reads it with axe on each in turn: the page is
    resized between the reads (its layout follows the media queries as a page loaded at
    that size does), so each page is loaded once, not once a screen."""
    found = []
    for n, screen in enumerate(screens):
        page.set_viewport_size(SCREENS[screen])
        if n == 0:
            page.goto(url)
            if url == "/map/":  # its markers come after the page, from map_data
                page.locator("#map[data-loaded=true]").wait_for()
        else:  # the page's resize handlers run before the next frame's (web/tables.js)
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
        found += [f"{url} on a {screen}: {line}" for line in serious_violations(page)]
    return found


@pytest.mark.parametrize(
    ("area", "part"), CASES, ids=[f"{a}-{k + 1}" if a in PARTS else a for a, k in CASES]
)
def test_no_page_has_a_serious_violation(world, contexts, area, part):
    _, pages_of, _ = world
    pages = pages_of(area)[part :: PARTS.get(area, 1)]
    assert pages, f"{area} (part {part + 1}) has no page: lower PARTS, or list it in NO_PAGES"
    found = []
    for n, (role, url) in enumerate(pages):
        # Every other page is loaded on the phone, the rest on the desktop.
        screens = list(SCREENS) if n % 2 == 0 else list(reversed(SCREENS))
        found += [f"{line} as {role}" for line in _read(contexts(role), url, screens)]
    assert found == [], "\n".join(found)

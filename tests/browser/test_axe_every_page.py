"""axe-core finds no serious or critical violation on any page of the application: every page
of the access matrix (tests/access: its TABLE and each area's) that a role reads ("ok" for a
GET), loaded as that role in agency A of the matrix's world, on a desktop and on a phone.

The world (both demo jurisdictions) is built once per module, committed for a server of the
module's own (pytest-django's live_server would empty the database after every test); each
test is one area on one screen, so pytest-xdist spreads them, and each role keeps one signed-in
browser context per screen."""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test import Client
from pytest_django.live_server_helper import LiveServer

from tests.access import areas
from tests.access.test_matrix import COLUMNS, TABLE, add_photos, build
from tests.access.world import ROLES, build_world

from .conftest import PHONE
from .test_accessibility import serious_violations

SCREENS = {"desktop": {"width": 1280, "height": 900}, "phone": PHONE}
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
TABLES = {"core": TABLE, **{m.__name__.rpartition(".")[2]: m.TABLE for m in areas.modules()}}


def _rows(area: str) -> list[dict[str, str]]:
    lines = TABLES[area].strip().splitlines()
    return [dict(zip(COLUMNS, line.split(), strict=True)) for line in lines]


def _pages(side, client_of) -> dict[str, list[tuple[str, str]]]:
    """Area -> the (role, URL) of each HTML page a role reads there: a GET that answers 200
    with a page (an export, a redirect or an API's JSON is not one axe reads). A page whose
    markup is the same for two roles (but for the name signed in and the form's token) is
    read once: axe would find the same in it."""
    pages, seen = defaultdict(list), set()
    for area in TABLES:
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
                    pages[area].append((role, url))
    return pages


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The matrix's world, committed, with a server over it and each role's session cookie;
    the database is emptied again when the module ends."""
    with django_db_blocker.unblock():
        side = build_world()["A"]
        add_photos({"A": side})
        clients = {}
        for role in ROLES:
            clients[role] = Client()
            clients[role].force_login(side.users[role])
        pages = _pages(side, clients)
        cookies = {r: c.cookies[settings.SESSION_COOKIE_NAME].value for r, c in clients.items()}
        server = LiveServer("localhost")
        try:
            yield server.url, pages, cookies
        finally:
            server.stop()
            call_command("flush", interactive=False, verbosity=0)
            # Opened in this fixture's context (Playwright's greenlets give each its own):
            # the end of the run closes another before it drops the database.
            connection.close()


@pytest.fixture(scope="module")
def contexts(browser, world):
    """One signed-in browser context per (role, screen), opened when first needed."""
    url, _, cookies = world
    opened = {}

    def get(role: str, screen: str):
        if (role, screen) not in opened:
            context = browser.new_context(viewport=SCREENS[screen], base_url=url)
            context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": cookies[role], "url": url}]
            )
            opened[(role, screen)] = context.new_page()
        return opened[(role, screen)]

    yield get
    for page in opened.values():
        page.context.close()


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("area", TABLES)
def test_no_page_has_a_serious_violation(world, contexts, area, screen):
    _, pages, _ = world
    found = []
    for role, url in pages[area]:
        page = contexts(role, screen)
        page.goto(url)
        if url == "/map/":  # its markers come after the page, from map_data
            page.locator("#map[data-loaded=true]").wait_for()
        found += [f"{url} as {role}: {line}" for line in serious_violations(page)]
    assert found == [], "\n".join(found)

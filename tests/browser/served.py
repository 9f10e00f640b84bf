"""A world built once for a module's browser tests that only read it: committed (a server
of the module's own reads it, where pytest-django's live_server would empty the database
after every test), with each person's session cookie, and emptied when the module ends."""

from __future__ import annotations

from contextlib import contextmanager

from django.conf import settings
from django.db import connection
from django.test import Client
from pytest_django.live_server_helper import LiveServer

from tests import databases


@contextmanager
def served(django_db_blocker):
    """Inside: build the world (committed as it is made); yields the server over it."""
    with django_db_blocker.unblock():
        server = LiveServer("localhost")
        try:
            yield server
        finally:
            server.stop()
            databases.empty()
            # Opened in the fixture's context (Playwright's greenlets give each its own): the
            # end of the run closes another before it drops the database.
            connection.close()


def session_cookie(user) -> str:
    """The value of a session cookie signed in as `user`, without the sign-in form."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def signed_in_page(browser, url: str, cookie: str, **context):
    """A page of a new browser context that carries `cookie` for the server at `url`."""
    opened = browser.new_context(base_url=url, **context)
    opened.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": url}])
    return opened.new_page()


@contextmanager
def signed_in_pages(browser, url: str, cookies: dict[str, str], *, script: str = ""):
    """Gives a page for each person of `cookies` (opened, signed in, when first asked for,
    with `script` put on every page it opens); closes them at the end."""
    opened = {}

    def page_of(person: str):
        if person not in opened:
            opened[person] = signed_in_page(browser, url, cookies[person])
            if script:
                opened[person].context.add_init_script(script)
        return opened[person]

    try:
        yield page_of
    finally:
        for page in opened.values():
            page.context.close()

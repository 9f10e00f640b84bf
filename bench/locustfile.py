"""Locust users for `python -m bench.pages`: each signs in once, chooses the bench agency,
then requests the pages in turn. Settings come from the environment set by bench.pages:
BENCH_USERNAME, BENCH_PASSWORD, BENCH_AGENCY, BENCH_PAGES (JSON: name -> URL, `{code}` for
an establishment's), BENCH_CODES (establishment codes, comma separated), BENCH_WAIT (think
time after each page: a random time between half and one and a half times this many
seconds; default 0, no wait).

The users start on the pages together, once every one of them has signed in, and the figures
are counted from then: twenty sign-ins at once (each a password hash of about 0.2 s of CPU)
would otherwise be the first seconds of the run. With a think time, each then waits a random
part of it first, as people do not all open the dashboard in the same second."""

from __future__ import annotations

import json
import os
import random
import re

import gevent
from gevent.event import Event
from locust import HttpUser, between, task

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CODES = [c for c in os.environ.get("BENCH_CODES", "").split(",") if c]
WAIT = float(os.environ.get("BENCH_WAIT", "0"))
PAGES = json.loads(os.environ.get("BENCH_PAGES", "{}"))
SIGNED_IN = Event()  # set when every user has signed in
SIGN_IN_TIMEOUT = 120


def _csrf(html: str) -> str:
    match = CSRF.search(html)
    if match is None:
        raise RuntimeError("no CSRF token in the page")
    return match.group(1)


class Staff(HttpUser):
    wait_time = between(WAIT / 2, WAIT * 1.5)
    signed_in = 0

    def on_start(self) -> None:
        page = self.client.get("/accounts/login/", name="login")
        page = self.client.post(
            "/accounts/login/",
            data={
                "username": os.environ["BENCH_USERNAME"],
                "password": os.environ["BENCH_PASSWORD"],
                "csrfmiddlewaretoken": _csrf(page.text),
            },
            headers={"Referer": page.url},
            name="login",
        )
        self.client.post(
            "/agency/switch/",
            data={
                "agency": os.environ["BENCH_AGENCY"],
                "next": "/",
                "csrfmiddlewaretoken": self.client.cookies.get("csrftoken", ""),
            },
            headers={"Referer": page.url},
            name="agency switch",
        )
        Staff.signed_in += 1
        if Staff.signed_in >= self.environment.runner.target_user_count:
            self.environment.stats.reset_all()
            SIGNED_IN.set()
        SIGNED_IN.wait(timeout=SIGN_IN_TIMEOUT)
        if WAIT:
            gevent.sleep(random.uniform(0, WAIT))

    def _get(self, name: str, url: str) -> None:
        with self.client.get(
            url, name=name, allow_redirects=False, catch_response=True
        ) as response:
            if response.status_code != 200:
                response.failure(f"HTTP {response.status_code}")

    @task
    def pages(self) -> None:
        """The four pages in turn, with a wait after each (the last one's is locust's)."""
        for i, (name, url) in enumerate(PAGES.items()):
            if i and WAIT:
                self.wait()
            self._get(name, url.format(code=random.choice(CODES) if CODES else ""))

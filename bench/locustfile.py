"""Locust users for `python -m bench.pages`: each signs in once, chooses the bench agency,
then requests the pages in turn. Settings come from the environment set by bench.pages:
BENCH_USERNAME, BENCH_PASSWORD, BENCH_AGENCY, BENCH_PAGES (JSON: name -> URL, `{code}` for
an establishment's), BENCH_CODES (establishment codes, comma separated), BENCH_WAIT (think
time after each page: a random time between half and one and a half times this many
seconds; default 0, no wait)."""

from __future__ import annotations

import json
import os
import random
import re

from locust import HttpUser, between, task

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CODES = [c for c in os.environ.get("BENCH_CODES", "").split(",") if c]
WAIT = float(os.environ.get("BENCH_WAIT", "0"))
PAGES = json.loads(os.environ.get("BENCH_PAGES", "{}"))


def _csrf(html: str) -> str:
    match = CSRF.search(html)
    if match is None:
        raise RuntimeError("no CSRF token in the page")
    return match.group(1)


class Staff(HttpUser):
    wait_time = between(WAIT / 2, WAIT * 1.5)

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

"""Locust users for `python -m bench.pages`: staff and operators (bench/visits.py), each
signing in once, then requesting their pages in turn. Settings come from the environment set
by bench.pages: BENCH_PASSWORD (every bench login's), BENCH_STAFF_USERNAME, BENCH_STAFF_PAGES
and BENCH_OPERATOR_PAGES (JSON: name -> URL, `{code}` for an establishment's, `{case}` for a
case's), BENCH_CODES and BENCH_CASES (comma separated), BENCH_OPERATORS (JSON: [username,
establishment code] of each operator login), BENCH_STAFF_WEIGHT and BENCH_OPERATOR_WEIGHT
(locust's share of each kind of user), BENCH_WAIT (think time after each page: a random time
between half and one and a half times this many seconds; default 0, no wait), BENCH_SECONDS
(how long the pages are requested).

The users start on the pages together, once every one of them has signed in, and the figures
are counted from then, for BENCH_SECONDS, when the run ends (locust's --run-time only bounds
the whole): a hundred sign-ins at once (each a password hash of about 0.2 s of CPU) would
otherwise be the first seconds of the run, or all of it. With a think time, each then waits a
random part of it first, as people do not all open the dashboard in the same second."""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from collections.abc import Iterator

import gevent
from gevent.event import Event
from locust import HttpUser, between, task

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CODES = [c for c in os.environ.get("BENCH_CODES", "").split(",") if c]
CASES = [c for c in os.environ.get("BENCH_CASES", "").split(",") if c]
WAIT = float(os.environ.get("BENCH_WAIT", "0"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "60"))
STAFF_PAGES = json.loads(os.environ.get("BENCH_STAFF_PAGES", "{}"))
OPERATOR_PAGES = json.loads(os.environ.get("BENCH_OPERATOR_PAGES", "{}"))
OPERATORS = itertools.cycle(json.loads(os.environ.get("BENCH_OPERATORS", "[]")) or [["", ""]])
SIGNED_IN = Event()  # set when every user has signed in
SIGN_IN_TIMEOUT = 180
signed_in = 0


def _csrf(html: str) -> str:
    match = CSRF.search(html)
    if match is None:
        raise RuntimeError("no CSRF token in the page")
    return match.group(1)


class _Visitor(HttpUser):
    abstract = True
    wait_time = between(WAIT / 2, WAIT * 1.5)
    pages: dict[str, str] = {}
    tour: Iterator[str]

    def sign_in(self, username: str) -> None:
        """Sign in through the login form, then wait for the others to have signed in."""
        global signed_in
        page = self.client.get("/accounts/login/", name="login")
        with self.client.post(
            "/accounts/login/",
            data={
                "username": username,
                "password": os.environ["BENCH_PASSWORD"],
                "csrfmiddlewaretoken": _csrf(page.text),
            },
            headers={"Referer": page.url},
            name="login",
            allow_redirects=False,
            catch_response=True,
        ) as response:
            if response.status_code != 302:  # the form again: not signed in
                response.failure(f"HTTP {response.status_code}, not signed in")
        signed_in += 1
        if signed_in >= self.environment.runner.target_user_count:
            self.environment.stats.reset_all()
            SIGNED_IN.set()
            gevent.spawn_later(SECONDS, self.environment.runner.quit)
        SIGNED_IN.wait(timeout=SIGN_IN_TIMEOUT)
        if WAIT:
            gevent.sleep(random.uniform(0, WAIT))

    def fill(self) -> dict[str, str]:
        raise NotImplementedError

    def _get(self, name: str, url: str) -> None:
        with self.client.get(
            url, name=name, allow_redirects=False, catch_response=True
        ) as response:
            if response.status_code != 200:
                response.failure(f"HTTP {response.status_code}")

    @task
    def visit(self) -> None:
        """The next of the pages in turn (locust waits after each), from a page of its own
        at first: a run shorter than a round of them still requests every page."""
        if not hasattr(self, "tour"):
            names = list(self.pages)
            start = random.randrange(len(names))
            self.tour = itertools.cycle(names[start:] + names[:start])
        name = next(self.tour)
        self._get(name, self.pages[name].format(**self.fill()))


class Staff(_Visitor):
    weight = int(os.environ.get("BENCH_STAFF_WEIGHT", "4"))
    pages = STAFF_PAGES

    def on_start(self) -> None:
        self.sign_in(os.environ["BENCH_STAFF_USERNAME"])

    def fill(self) -> dict[str, str]:
        return {
            "code": random.choice(CODES) if CODES else "",
            "case": random.choice(CASES) if CASES else "",
        }


class Operator(_Visitor):
    weight = int(os.environ.get("BENCH_OPERATOR_WEIGHT", "1"))
    pages = OPERATOR_PAGES

    def on_start(self) -> None:
        username, self.code = next(OPERATORS)
        self.sign_in(username)

    def fill(self) -> dict[str, str]:
        return {"code": self.code}

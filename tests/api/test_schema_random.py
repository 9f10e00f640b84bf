"""schemathesis with random generation against gunicorn (issue 15, Done when): a bounded number
of new examples per operation, each run, as the manager and as the operator's, hauler's and
owner's tokens, finds no server error and no answer outside the schema. The field sync and
the onboarding upload, pages rather than API endpoints, are run the same way from a small
OpenAPI document of their own (pages.openapi.yaml), signed in as the demo's manager.

gunicorn serves a database of its own (migrated, the demo loaded into it), so that what the
calls write stays out of the other tests; it is dropped after.
Always random (new examples each run); `make test` also sets FOGKEEPER_SCHEMA_RANDOM=1, so
that test_schema_conformance.py explores new examples too."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import psycopg
import pytest

from fogkeeper.api.agency import HEADER as AGENCY_HEADER
from fogkeeper.demo.builder import STAFF_PASSWORD
from tests import databases

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
AS_OF = "2026-03-02"
ROLES = ["manager", "operator", "hauler", "owner"]  # the demo's logins
# one worker runs both tests, so that the server is started once in a run
pytestmark = [pytest.mark.servers, pytest.mark.xdist_group("schema-random")]
EXAMPLES = 15  # per operation and role: the four roles together take about two minutes
PAGES = Path(__file__).with_name("pages.openapi.yaml")
PAGE_EXAMPLES = 25  # per page: the two pages take well under a minute


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _manage(env, *args) -> str:
    done = subprocess.run(
        [str(BIN / "python"), "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker):
    """gunicorn (two workers) on a database of its own with the demo loaded; the tokens of the
    demo's logins. Under xdist the database is a clone of the run's migrated template."""
    admin = os.environ["DATABASE_URL"]
    copy = f"fogkeeper_random_{os.getpid()}"
    with django_db_blocker.unblock():
        cloned = databases.clone_template(copy)
    if not cloned:
        with psycopg.connect(admin, autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{copy}"')
            db.execute(f'CREATE DATABASE "{copy}"')
    url = re.sub(r"/[^/]*$", f"/{copy}", admin)
    env = dict(os.environ, DATABASE_URL=url, FOGKEEPER_DEBUG="false", PYTHONUNBUFFERED="1")
    if not cloned:
        _manage(env, "migrate", "--no-input")
    _manage(env, "demo", "--as-of", AS_OF)
    tokens = {}
    for role in ROLES:
        out = _manage(env, "drf_create_token", role)
        tokens[role] = re.search(r"[0-9a-f]{40}", out)[0]
    port = _free_port()
    with tempfile.TemporaryFile("w+") as log:
        gunicorn = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "--config",
                "python:fogkeeper.config.gunicorn",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
                "fogkeeper.config.wsgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_ready(f"{base}/api/v1/schema/", gunicorn)
            yield base, tokens, lambda: _server_errors(log)
        finally:
            gunicorn.terminate()
            gunicorn.wait(timeout=30)
            with psycopg.connect(admin, autocommit=True) as db:
                db.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')
            print(_server_errors(log), file=sys.stderr)


def _server_errors(log) -> str:
    """The server's last tracebacks, from its log so far: what a 500 was."""
    log.flush()
    log.seek(0)
    text = log.read()
    log.seek(0, 2)
    return "\n".join(text.split("Traceback")[-3:])[-6000:] if "Traceback" in text else ""


def _wait_ready(url: str, process) -> None:
    for _ in range(600):
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with status {process.returncode}")
        try:
            urllib.request.urlopen(url, timeout=5).close()
            return
        except OSError:
            time.sleep(0.1)  # waiting on a process to start, not on the clock
    raise RuntimeError("gunicorn did not answer")


def _schemathesis(base: str, token: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            str(BIN / "schemathesis"),
            "run",
            f"{base}/api/v1/schema/",
            "--checks",
            "not_a_server_error,response_schema_conformance",
            "--phases",
            "examples,fuzzing",
            "--max-examples",
            str(EXAMPLES),
            "--exclude-path",
            "/api/v1/token/",
            "--header",
            f"Authorization: Token {token}",
            "--header",
            f"{AGENCY_HEADER}: san-clemente",
            "--no-color",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_it_conforms_to_its_schema_on_random_examples(server):
    """The four roles at once (each a schemathesis run of its own), so that the run costs one
    role's time; each run prints its seed, to replay a failure with --seed."""
    base, tokens, server_errors = server
    runs = {role: _schemathesis(base, tokens[role]) for role in ROLES}
    failed = {}
    for role, run in runs.items():
        out, _ = run.communicate(timeout=900)
        if run.returncode != 0:
            failed[role] = out[-6000:]
    said = "\n\n".join(f"== {role}\n{out}" for role, out in failed.items())
    assert not failed, f"{said}\n\n== the server's errors\n{server_errors()}"


def _signed_in(base: str, username: str) -> tuple[str, str]:
    """The session and CSRF cookies of `username` signed in through the login page, and the
    CSRF token the pages' forms and the field app send back."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(f"{base}/accounts/login/", timeout=30).close()
    token = next(c.value for c in jar if c.name == "csrftoken")
    form = {"username": username, "password": STAFF_PASSWORD, "csrfmiddlewaretoken": token}
    opener.open(f"{base}/accounts/login/", urllib.parse.urlencode(form).encode(), 30).close()
    cookies = {c.name: c.value for c in jar}
    assert "sessionid" in cookies, f"{username} was not signed in"
    return "; ".join(f"{k}={v}" for k, v in cookies.items()), cookies["csrftoken"]


def test_the_field_sync_and_the_onboarding_upload_answer_random_posts_in_words(server):
    """Random posts to the two pages, as a signed-in manager: never a server error, only the
    answers described, and the sync's JSON as its docstring describes it. (schemathesis asks
    for no type, so a body refused before the view, as one that cannot be read, is answered as
    a page: no content type check. The field app asks for JSON and gets it:
    tests/web/field/test_field_sync_input.py.)"""
    base, _, _ = server
    cookie, csrf = _signed_in(base, "manager")
    run = subprocess.run(
        [
            str(BIN / "schemathesis"),
            "run",
            str(PAGES),
            "--url",
            base,
            "--checks",
            "not_a_server_error,status_code_conformance,response_schema_conformance",
            "--phases",
            "examples,fuzzing",
            "--max-examples",
            str(PAGE_EXAMPLES),
            "--header",
            f"Cookie: {cookie}",
            "--header",
            f"X-CSRFToken: {csrf}",
            "--header",
            f"Referer: {base}/",
            "--no-color",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-8000:] + run.stderr[-2000:]

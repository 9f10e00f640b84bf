"""Sign-in failures and API rates are counted in a cache every server process shares (the
database's by default): production settings refuse a cache of one process, and two real
gunicorn processes, taking turns, count as one."""

from __future__ import annotations

import re
import subprocess
import sys

import environ
import pytest
import requests
from django.core.exceptions import ImproperlyConfigured
from rest_framework.authtoken.models import Token

from fogkeeper.security.caches import require_shared
from tests.security.servers import ROOT, Server, database_url, production_env
from tests.web.people import PASSWORD, make_user, two_agencies

REFUSED = "FOGKEEPER_CACHE_URL gives a cache of one process only"
ONE_PROCESS = ["locmemcache://", "dummycache://", "filecache:///tmp/fogkeeper-cache"]
SHARED = ["dbcache://fogkeeper_cache", "redis://127.0.0.1:6379/1", "rediss://cache.example:6380/0"]


@pytest.mark.parametrize("url", ONE_PROCESS)
def test_it_refuses_a_cache_of_one_process_outside_debug(url):
    with pytest.raises(ImproperlyConfigured, match=REFUSED):
        require_shared({"default": environ.Env.cache_url_config(url)}, debug=False)
    require_shared({"default": environ.Env.cache_url_config(url)}, debug=True)


@pytest.mark.parametrize("url", SHARED)
def test_it_accepts_the_database_cache_and_redis(url):
    require_shared({"default": environ.Env.cache_url_config(url)}, debug=False)


def test_it_shares_the_database_cache_by_default():
    code = "from django.conf import settings; print(settings.CACHES['default']['BACKEND'])"
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=production_env(DJANGO_SETTINGS_MODULE="fogkeeper.config.settings"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.strip() == "fogkeeper.security.counts.AtomicDatabaseCache", result.stderr


def test_it_keeps_manage_py_from_running_with_a_cache_of_one_process():
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=production_env(FOGKEEPER_CACHE_URL="locmemcache://"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert REFUSED in result.stderr


def test_it_keeps_gunicorn_from_starting_with_a_cache_of_one_process():
    server = Server(FOGKEEPER_CACHE_URL="locmemcache://", DATABASE_URL="sqlite:////tmp/fk.db")
    try:
        assert server.process.wait(timeout=30) != 0
        assert REFUSED in server.output()
    finally:
        server.stop()


@pytest.fixture(scope="module")
def two_servers(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        url = database_url()
    settings = {"DATABASE_URL": url, "FOGKEEPER_DB_CONN_MAX_AGE": "0"}
    servers = [Server(**settings, FOGKEEPER_API_RATE_USER="3/minute") for _ in range(2)]
    try:
        for server in servers:
            server.wait_ready()
        yield servers
    finally:
        for server in servers:
            server.stop()


def sign_in(session: requests.Session, server: Server, password: str) -> requests.Response:
    form = session.get(f"{server.url}/accounts/login/").text
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    data = {"username": "alice", "password": password, "csrfmiddlewaretoken": token}
    return session.post(f"{server.url}/accounts/login/", data=data, allow_redirects=False)


@pytest.mark.django_db(transaction=True)
def test_it_locks_out_after_five_failures_counted_across_two_processes(two_servers):
    make_user("alice", two_agencies()[0])
    session = requests.Session()
    failed = [sign_in(session, two_servers[i % 2], "wrong password") for i in range(5)]
    assert [r.status_code for r in failed] == [200] * 5
    assert [sign_in(session, s, PASSWORD).status_code for s in two_servers] == [429, 429]


@pytest.mark.django_db(transaction=True)
def test_it_counts_the_api_rate_across_two_processes(two_servers):
    alice = make_user("alice", two_agencies()[0], role="manager")
    headers = {"Authorization": f"Token {Token.objects.create(user=alice).key}"}
    statuses = [
        requests.get(f"{two_servers[i % 2].url}/api/v1/permits/", headers=headers).status_code
        for i in range(4)
    ]
    assert statuses == [200, 200, 200, 429]

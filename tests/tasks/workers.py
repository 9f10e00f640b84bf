"""Real Celery workers for the worker tests: processes of `celery -A fogkeeper worker` on the
throwaway Redis of scripts/with-redis and this test's database (which the test must commit
to: `django_db(transaction=True)`)."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from celery import Celery
from django.db import connection

from bench import workers

REDIS_URL = os.environ.get("FOGKEEPER_TEST_REDIS_URL", "")
REDIS_DIR = os.environ.get("FOGKEEPER_TEST_REDIS_DIR", "")
# A message taken by a worker that vanished goes to another after this many seconds.
VISIBILITY_TIMEOUT = 3


def require_redis() -> None:
    if not REDIS_URL:
        pytest.fail(
            "the worker tests need the throwaway Redis of scripts/with-redis: run them as "
            "`scripts/with-postgres scripts/with-redis .venv/bin/python -m pytest tests/tasks`"
        )


def database_url() -> str:
    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


def client() -> Celery:
    """A Celery application that sends to the test's Redis (the project's own runs its tasks
    inline in the tests, as without a broker)."""
    app = Celery("fogkeeper-tests", broker=REDIS_URL, set_as_current=False)
    app.conf.broker_transport_options = {"visibility_timeout": VISIBILITY_TIMEOUT}
    app.conf.broker_connection_retry_on_startup = True
    return app


def start_worker(name: str, log_dir: Path, concurrency: int = 1) -> workers.Worker:
    """One worker process (its pool of `concurrency` children) on the test's Redis and
    database, started at once; a vanished worker's message is handed on within seconds."""
    env = {
        "FOGKEEPER_BROKER_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "FOGKEEPER_DB_CONN_MAX_AGE": "0",
    }
    return workers.Worker(
        name,
        broker=REDIS_URL,
        database=database_url(),
        log_dir=log_dir,
        concurrency=concurrency,
        env=env,
    )


def wait_for(condition: Callable[[], object], *, what: str, seconds: float = 180.0, workers=()):
    """Poll `condition` until it is true; fail naming `what` (with the workers' logs). A
    worker started on a loaded 2-core machine has been seen to take a minute to boot."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(0.1)
    logs = "\n".join(f"--- {w.name}\n{w.output()[-3000:]}" for w in workers)
    pytest.fail(f"waited {seconds:.0f} s for {what}\n{logs}")


def flush_broker() -> None:
    subprocess.run(["redis-cli", "-u", REDIS_URL, "flushall"], check=True, capture_output=True)


def restart_broker() -> None:
    subprocess.run([f"{REDIS_DIR}/restart"], check=True, capture_output=True, timeout=30)

"""Real server processes for the tests: gunicorn with the production settings
(FOGKEEPER_DEBUG=false) and its own (fogkeeper.config.gunicorn) on a free port of 127.0.0.1,
against this test's database (which the test must commit to: `django_db(transaction=True)`)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).parent / "gunicorn"


def database_url() -> str:
    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


def production_env(**settings: str) -> dict[str, str]:
    """The environment with nothing of the test run's own settings (FOGKEEPER_*, DJANGO_*)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOGKEEPER_", "DJANGO_"))}
    return {**env, "FOGKEEPER_DEBUG": "false", "PYTHONUNBUFFERED": "1", **settings}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, *, workers: int = 1, **settings: str):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 - closed in stop()
        command = [str(GUNICORN), "-c", "python:fogkeeper.config.gunicorn"]
        command += ["fogkeeper.config.wsgi:application"]
        command += ["--bind", f"127.0.0.1:{self.port}", "--workers", str(workers)]
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=production_env(**settings),
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({self.process.returncode}):\n{self.output()}")
            try:
                requests.get(f"{self.url}/accounts/login/", timeout=10)
                return
            except (requests.ConnectionError, requests.Timeout):
                time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer within {timeout:.0f} s:\n{self.output()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)
        self.log.close()

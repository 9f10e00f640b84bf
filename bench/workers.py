"""Real Celery workers for the benchmarks and the worker tests (tests/tasks/workers.py):
processes of `celery -A fogkeeper worker`, each in a session of its own (so that it and its
pool stop together), on the broker and database given, logging to a folder. `Workers` starts
them, waits until each says it is ready and stops them all, cleanly (SIGTERM, a warm
shutdown) and then by force if they linger."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class Worker:
    def __init__(
        self, name: str, *, broker: str, database: str, log_dir: Path, concurrency=1, env=None
    ):
        self.name = name
        self.log = log_dir / f"{name}.log"
        env = {
            **os.environ,
            "FOGKEEPER_BROKER_URL": broker,
            "DATABASE_URL": database,
            **(env or {}),
        }
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "fogkeeper",
            "worker",
            "--pool",
            "prefork",
            "--concurrency",
            str(concurrency),
            "--hostname",
            f"{name}@%h",
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
        with self.log.open("w") as out:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def ready(self) -> bool:
        return " ready." in self.log.read_text(errors="replace")

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """kill -9 of the worker and its pool, at once, as a machine lost would."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self, seconds: float = 30.0) -> None:
        if self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def tail(self, chars: int = 2000) -> str:
        return self.output()[-chars:]


class Workers:
    """`with Workers(n, ...) as workers:` n worker processes of one pool child each."""

    def __init__(self, n: int, *, broker: str, database: str, log_dir: Path, prefix="bench"):
        self.args = (n, broker, database, log_dir, prefix)
        self.workers: list[Worker] = []

    def __enter__(self) -> Workers:
        n, broker, database, log_dir, prefix = self.args
        try:
            for k in range(1, n + 1):
                self.workers.append(
                    Worker(f"{prefix}-{k}", broker=broker, database=database, log_dir=log_dir)
                )
            self._wait_ready(deadline=time.monotonic() + 120)
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _wait_ready(self, deadline: float) -> None:
        while not all(w.ready() for w in self.workers):
            self.check()
            if time.monotonic() > deadline:
                raise RuntimeError(f"workers not ready after 120 s\n{self.logs()}")
            time.sleep(0.2)

    def check(self) -> None:
        """Raise when a worker has stopped on its own."""
        for w in self.workers:
            if not w.alive():
                raise RuntimeError(f"worker {w.name} exited ({w.process.returncode})\n{w.tail()}")

    def stop(self) -> None:
        for w in self.workers:  # all told at once, then waited for
            if w.alive():
                os.killpg(w.process.pid, signal.SIGTERM)
        for w in self.workers:
            w.stop()

    def logs(self) -> str:
        return "\n".join(f"--- {w.name}\n{w.tail()}" for w in self.workers)

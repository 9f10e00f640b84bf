"""The worker tests share one Redis, which they flush and restart: whichever xdist worker runs
one of them holds the Redis alone until it ends (the xdist_group of their modules usually puts
them on one worker already; this keeps them apart when it does not)."""

import fcntl
import tempfile
from pathlib import Path

import pytest

from .workers import REDIS_URL


@pytest.fixture
def redis_alone():
    name = "fogkeeper-redis-" + REDIS_URL.rsplit(":", 1)[-1].replace("/", "-") + ".lock"
    with open(Path(tempfile.gettempdir()) / name, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)

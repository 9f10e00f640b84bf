"""Writes raced by real threads against PostgreSQL: each test starts its threads together at
a barrier, each thread on its own database connection (closed when it ends)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection


def race(n: int, act: Callable[[int], Any]) -> list[Any]:
    """What `act(i)` returned in each of `n` threads started together; an exception raised in
    a thread is returned in its place."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = act(i)
        except Exception as e:  # returned for the test to show
            results[i] = e
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def statuses(responses: list[Any]) -> list[Any]:
    """The status of each response, sorted (an exception as its name)."""
    return sorted(str(getattr(r, "status_code", type(r).__name__)) for r in responses)

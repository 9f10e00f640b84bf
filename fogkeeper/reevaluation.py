"""A write re-evaluates what it changed: each write service that changes what the rules read
asks for its establishments here, and once its transaction commits they are evaluated again
(compliance provides `reevaluate`, fogkeeper/upcalls.py), each once however many writes of
the transaction named it. A transaction rolled back evaluates nothing.

The day they are evaluated on is, in order: the one the service names; the day of the page
that made the write (`evaluating_on`, set by the staff pages for their `?as_of=`); the
agency's today. Many establishments at once (a manifest file, an import) may be queued for the
workers instead (`queued=True`, fogkeeper.queue's task by name).

A process that never loaded compliance fails loudly at the commit: a write must never leave
stale findings in silence."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, transaction

from . import queue, upcalls

# (agency id, day or None for the agency's today, queued) -> establishment ids
Pending = dict[tuple[int, date | None, bool], set[int]]

_page_day: ContextVar[date | None] = ContextVar("evaluating_on", default=None)
_held: ContextVar[bool] = ContextVar("reevaluation_held", default=False)
_local = threading.local()  # the pending ids of this thread's transaction (its connection)


@contextmanager
def evaluating_on(day: date | None) -> Iterator[None]:
    """The writes made inside are evaluated on `day` (the day the page shows)."""
    token = _page_day.set(day)
    try:
        yield
    finally:
        _page_day.reset(token)


@contextmanager
def held() -> Iterator[None]:
    """The writes made inside ask for no re-evaluation: their caller asks for every
    establishment it wrote afterwards, together (the demo's load, then its sweep; a bulk
    notice's run, then its one batch)."""
    token = _held.set(True)
    try:
        yield
    finally:
        _held.reset(token)


def reevaluate_on_commit(*establishments: Any, as_of: date | None = None) -> None:
    """Evaluate these establishments (records with `pk` and `agency_id`) again once the
    transaction commits (at once outside one)."""
    for fse in establishments:
        reevaluate_ids_on_commit(fse.agency_id, [fse.pk], as_of=as_of)


def reevaluate_ids_on_commit(
    agency_id: int, ids: Iterable[int], *, as_of: date | None = None, queued: bool = False
) -> None:
    """Evaluate these establishments of the agency again once the transaction commits: here,
    or on the workers in batches when `queued` (a write of many)."""
    wanted = set(ids)
    if _held.get() or not wanted:
        return
    key = (agency_id, as_of or _page_day.get(), queued)
    connection = connections[DEFAULT_DB_ALIAS]
    if writes_committed(connection):
        _run({key: wanted})
        return
    if not _flush_waits(connection):
        _local.pending = {}
        transaction.on_commit(flush)
    _local.pending.setdefault(key, set()).update(wanted)


def flush() -> None:
    """Evaluate the pending establishments (the commit's callback)."""
    pending: Pending = getattr(_local, "pending", {})
    _local.pending = {}
    _run(pending)


def _run(pending: Pending) -> None:
    for (agency_id, day, queued), ids in sorted(pending.items(), key=_order):
        if queued:
            queue.reevaluate(agency_id, ids, as_of=day)
        else:
            upcalls.provider("reevaluate")(agency_id, sorted(ids), day)


def _order(item: tuple) -> tuple:
    (agency_id, day, queued), _ = item
    return (agency_id, day or date.max, queued)


def _flush_waits(connection: Any) -> bool:
    """Whether this transaction's commit will flush already (a savepoint rolled back drops
    the callbacks registered inside it, and the ids asked for there with them)."""
    return any(callback is flush for _, callback, _ in connection.run_on_commit)


def writes_committed(connection: Any) -> bool:
    """Whether a write made now is as good as committed: outside a transaction, or inside
    only a test case's, which stands for the database (as Django's durable check reads it)."""
    return all(getattr(block, "_from_testcase", False) for block in connection.atomic_blocks)

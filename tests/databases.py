"""One migrated PostgreSQL database per test run, cloned for each pytest-xdist worker.

Migrating takes far longer than `CREATE DATABASE … TEMPLATE`, so the first worker to take
the lock migrates a template database and every worker (that one too) clones its own test
database from it. The template's name carries the run's id (FOGKEEPER_TEST_RUN, set by the
controller before it starts the workers), so a run never clones another run's template; the
controller drops it when the run ends. Without xdist, or on SQLite, Django's own setup runs.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
import uuid
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any
from unittest.mock import patch

from django.db import connections, transaction
from django.test import TransactionTestCase

from fogkeeper import reevaluation

RUN_VARIABLE = "FOGKEEPER_TEST_RUN"


def run_id() -> str:
    """The id of this test run, shared by the controller and its workers."""
    return os.environ.setdefault(RUN_VARIABLE, uuid.uuid4().hex[:12])


def template_name() -> str:
    return f"test_fogkeeper_template_{run_id()}"


def uses_templates() -> bool:
    return bool(os.environ.get("PYTEST_XDIST_WORKER")) and _vendor() == "postgresql"


def _vendor() -> str:
    return connections["default"].vendor


@contextmanager
def _run_lock():
    path = Path(tempfile.gettempdir()) / f"fogkeeper-test-{run_id()}.lock"
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _exists(conn, name: str) -> bool:
    with conn._nodb_cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return cursor.fetchone() is not None


def _execute_nodb(conn, sql: str) -> None:
    with conn._nodb_cursor() as cursor:
        cursor.execute(sql)


def _migrate_template(conn, template: str) -> None:
    """Creates and migrates the template, then leaves it with no connection open (a database
    cannot be a template while someone is connected to it)."""
    own = conn.settings_dict["TEST"].get("NAME")
    conn.settings_dict["TEST"]["NAME"] = template
    try:
        conn.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    finally:
        conn.settings_dict["TEST"]["NAME"] = own
        conn.close()


def clone_for_worker() -> str:
    """Gives this worker its own database cloned from the run's template; returns its name."""
    conn = connections["default"]
    template = template_name()
    own = conn.creation._get_test_db_name()
    with _run_lock():
        if not _exists(conn, template):
            _migrate_template(conn, template)
        _execute_nodb(conn, f'DROP DATABASE IF EXISTS "{own}"')
        _execute_nodb(conn, f'CREATE DATABASE "{own}" TEMPLATE "{template}"')
    conn.close()
    conn.settings_dict["NAME"] = own
    from django.conf import settings

    settings.DATABASES["default"]["NAME"] = own
    return own


def clone_template(name: str) -> bool:
    """A database `name` cloned from the run's migrated template, for a server of a test's own
    (tests/api/test_schema_random.py), instead of migrating one; False where there is no
    template (no xdist, or SQLite)."""
    if not uses_templates():
        return False
    conn = connections["default"]
    with _run_lock():
        _execute_nodb(conn, f'DROP DATABASE IF EXISTS "{name}"')
        _execute_nodb(conn, f'CREATE DATABASE "{name}" TEMPLATE "{template_name()}"')
    return True


# Made by the migrations' post_migrate for every model, the same in every test: kept.
KEPT = {"django_content_type", "auth_permission"}


def empty(using: str = "default") -> None:
    """Empties every table of the application but the content types and permissions, as a
    flush does at the end of a test that commits (a live server's), in a tenth of its time:
    a DELETE of a table that is mostly empty costs little where TRUNCATE makes each table
    anew, and the content types and permissions kept need no post_migrate to make them
    again. The foreign keys are deferred (Django makes them so), so the order is free."""
    conn = connections[using]
    tables = conn.introspection.django_table_names(only_existing=True, include_views=False)
    with transaction.atomic(using=using), conn.cursor() as cursor:
        for table in sorted(set(tables) - KEPT):
            cursor.execute(f"DELETE FROM {conn.ops.quote_name(table)}")


def _empty_at_teardown(self) -> None:
    """TransactionTestCase's teardown (pytest-django's transactional_db, live_server) with
    `empty` for its flush, where the test asks for nothing a flush alone does."""
    if self.available_apps is not None or self.serialized_rollback or self.reset_sequences:
        return _FLUSH_AT_TEARDOWN(self)
    for name in self._databases_names(include_mirrors=False):
        empty(name)


_FLUSH_AT_TEARDOWN = TransactionTestCase._fixture_teardown


@contextmanager
def emptied_by_delete():
    with patch.object(TransactionTestCase, "_fixture_teardown", _empty_at_teardown):
        yield


def drop_worker_database(name: str) -> None:
    conn = connections["default"]
    conn.close()
    _execute_nodb(conn, f'DROP DATABASE IF EXISTS "{name}"')


def drop_template() -> None:
    """Run by the controller after its workers have finished (outside pytest-django's
    blocker, so with a connection of its own)."""
    if _vendor() != "postgresql":
        return
    import psycopg

    s = connections["default"].settings_dict
    where = {"host": s["HOST"], "port": s["PORT"], "user": s["USER"], "dbname": "postgres"}
    with psycopg.connect(**where, password=s["PASSWORD"] or None, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{template_name()}"')


@contextmanager
def rolled_back(django_db_blocker, *, as_committed: bool = False):
    """For a module-scoped fixture: what it builds inside stays for the module's tests, each of
    which runs in a savepoint of this transaction (pytest-django's db fixture nests in it), and
    is rolled back when the module ends, so it costs its building once per worker. With
    `as_committed`, the transaction stands for the database as a test case's does: a write's
    re-evaluation runs as the write ends (reevaluation.writes_committed, as_if_committed),
    not never."""
    outer = transaction.atomic()
    outer._from_testcase = as_committed  # type: ignore[attr-defined]
    committing = as_if_committed() if as_committed else nullcontext()
    with django_db_blocker.unblock(), outer, committing:
        try:
            yield
        finally:
            transaction.set_rollback(True)


def module_asks_for(request: Any, fixture: str) -> bool:
    """Whether a test of the module that `request` (a module-scoped fixture's) sets up asks
    for `fixture`: a module world is built only for the modules that read it."""
    mine = [i for i in request.session.items if getattr(i, "module", None) is request.module]
    return any(fixture in item.fixturenames for item in mine)


def built_for_module(request: Any, world: str = "_module_world") -> bool:
    """Whether the test's module built its world once for all its tests (the module-scoped
    fixture `world` yielded True); else a fixture that reads the world builds it first (a
    module elsewhere that imports the fixture, or one whose tests commit)."""
    return world in request.fixturenames and request.getfixturevalue(world)


def check_constraints() -> None:
    """Checks now the foreign keys of what a `rolled_back` fixture built: else each test's
    check at its end (Django's TestCase) checks them all again, its savepoint being rolled
    back with the check, at the world's size a second a test."""
    connections["default"].check_constraints()


_exit_atomic = transaction.Atomic.__exit__


def _exit_as_if_committed(self, exc_type, exc_value, traceback):
    """A write's transaction inside a test case's: once the last of its blocks exits, the
    re-evaluation it asked for runs, as the commit would run it (reevaluation.flush); the
    test case's own transaction stands for the database and never commits."""
    result = _exit_atomic(self, exc_type, exc_value, traceback)
    there = transaction.get_connection(self.using)
    if there.atomic_blocks and reevaluation.writes_committed(there):
        waiting = [c for c in there.run_on_commit if c[1] is reevaluation.flush]
        if waiting:
            there.run_on_commit = [c for c in there.run_on_commit if c not in waiting]
            reevaluation.flush()
    return result


@contextmanager
def as_if_committed():
    """Writes made inside a transaction that never commits (a test case's, a `rolled_back`
    fixture's) re-evaluate what they changed as their own blocks end, as a commit would."""
    with patch.object(transaction.Atomic, "__exit__", _exit_as_if_committed):
        yield

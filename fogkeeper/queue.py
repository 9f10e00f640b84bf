"""Work queued by the name of its task: on the workers when a broker is set, else at once in
this process (CELERY_TASK_ALWAYS_EAGER). A module that asks for work calls its task by name,
so it need not import the module that does the work: a page's run need not import its own
task module (which imports it back), nor an import of records the sweep above it
(fogkeeper/layers.py)."""

from __future__ import annotations

import logging
import threading
from datetime import date
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import close_old_connections, connection

log = logging.getLogger(__name__)

# the task that evaluates some establishments of an agency again (compliance/tasks.py)
REEVALUATE = "fogkeeper.compliance.reevaluate"
REEVALUATE_BATCH = 500


def task(name: str) -> Any:
    """The task registered as `name`, the tasks modules of every app imported first if none
    has been yet (a web process imports them only when it asks)."""
    if name not in current_app.tasks:
        current_app.loader.import_default_modules()
    return current_app.tasks[name]


def enqueue(name: str, *args: Any, priority: int | None = None) -> None:
    """Queue the task `name` with `args` (at `priority` when given)."""
    if priority is None:
        task(name).delay(*args)
    else:
        task(name).apply_async(args=list(args), priority=priority)


def beside(name: str, *args: Any) -> None:
    """Run the task `name` with `args` in the background of a page: on the workers when a
    broker is set; with none (the one-command start), in a thread of this process with a
    database connection of its own, so that the page that started it follows it as it would
    a worker's; here and now when settings.FOGKEEPER_RUN_INLINE (tests that look at once)."""
    if getattr(settings, "FOGKEEPER_RUN_INLINE", False):
        task(name)(*args)
    elif not settings.CELERY_TASK_ALWAYS_EAGER:
        task(name).delay(*args)
    else:
        threading.Thread(target=_in_thread, args=(name, args), daemon=True).start()


def _in_thread(name: str, args: tuple) -> None:
    close_old_connections()
    try:
        task(name)(*args)
    except Exception:  # the run records its own errors; this is a bug: logged, not lost
        log.exception("%s%r stopped", name, args)
    finally:
        connection.close()


def reevaluate(agency: Any, establishment_ids, *, as_of: date) -> None:
    """After a write that touches many establishments (a hauler's manifest file, a bulk
    notice, an import): evaluate them again, in tasks of REEVALUATE_BATCH."""
    ids = sorted(set(establishment_ids))
    for start in range(0, len(ids), REEVALUATE_BATCH):
        enqueue(REEVALUATE, agency.pk, ids[start : start + REEVALUATE_BATCH], as_of.isoformat())


def reevaluate_now(agency: Any, establishment_ids, *, as_of: date) -> None:
    """The same, here and now, in this process: for a write whose page or command shows the
    establishments' new status at once."""
    task(REEVALUATE)(agency.pk, sorted(set(establishment_ids)), as_of.isoformat())

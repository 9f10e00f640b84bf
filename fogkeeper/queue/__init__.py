"""Work queued by the name of its task: on the workers when a broker is set, else at once in
this process (CELERY_TASK_ALWAYS_EAGER). A module that asks for work calls its task by name,
so it need not import the module that does the work: a page's run need not import its own
task module (which imports it back), nor an import of records the sweep above it
(fogkeeper/layers.py).

A broker that cannot be reached (stopped, restarting, silent) never fails the page that
queued the work, whose write is committed already: the task is kept (models.Unsent, with the
record whose page then says "waiting for the workers") and the schedule's tick hands it to the
broker again (send_unsent). The settings bound how long a send may take before it is kept
(CELERY_BROKER_TRANSPORT_OPTIONS' timeouts, CELERY_TASK_PUBLISH_RETRY_POLICY)."""

from __future__ import annotations

import logging
import threading
from datetime import date
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import close_old_connections, connection, transaction
from kombu.exceptions import OperationalError as BrokerUnreachable

log = logging.getLogger(__name__)

# the task that evaluates some establishments of an agency again (compliance/tasks.py)
REEVALUATE = "fogkeeper.compliance.reevaluate"
REEVALUATE_BATCH = 500
# the words of a record whose task waits for the broker (Job.status_words)
WAITING = "Waiting for the workers"


def task(name: str) -> Any:
    """The task registered as `name`, the tasks modules of every app imported first if none
    has been yet (a web process imports them only when it asks)."""
    if name not in current_app.tasks:
        current_app.loader.import_default_modules()
    return current_app.tasks[name]


def enqueue(name: str, *args: Any, priority: int | None = None, record: Any = None) -> bool:
    """Queue the task `name` with `args` (at `priority` when given). False when the broker
    cannot be reached: the task is kept for the schedule's tick, `record` (whose page follows
    the task) marked as waiting for the workers."""
    try:
        _send(name, list(args), priority)
    except BrokerUnreachable as exc:
        _keep(name, list(args), priority, record, exc)
        return False
    return True


def beside(name: str, *args: Any, record: Any = None) -> bool:
    """Run the task `name` with `args` in the background of a page: on the workers when a
    broker is set (kept for the tick, as `enqueue` does, when it cannot be reached); with none
    (the one-command start), in a thread of this process with a database connection of its
    own, so that the page that started it follows it as it would a worker's; here and now when
    settings.FOGKEEPER_RUN_INLINE (tests that look at once)."""
    if getattr(settings, "FOGKEEPER_RUN_INLINE", False):
        task(name)(*args)
    elif not settings.CELERY_TASK_ALWAYS_EAGER:
        return enqueue(name, *args, record=record)
    else:
        threading.Thread(target=_in_thread, args=(name, args), daemon=True).start()
    return True


def _send(name: str, args: list, priority: int | None) -> None:
    if priority is None:
        task(name).delay(*args)
    else:
        task(name).apply_async(args=args, priority=priority)


def _keep(name: str, args: list, priority: int | None, record: Any, exc: Exception) -> None:
    from .models import Unsent

    log.warning(
        "the broker could not be reached: %s%r kept for the next tick: %s", name, tuple(args), exc
    )
    Unsent.objects.create(
        task=name, args=args, priority=priority, record=_label(record), error=str(exc)[:1000]
    )


def _label(record: Any) -> str:
    return f"{record._meta.label_lower}:{record.pk}" if record is not None else ""


def waiting(record: Any) -> bool:
    """Whether a task of `record` waits for the broker (kept by `enqueue`, not sent since)."""
    from .models import Unsent

    return Unsent.objects.filter(record=_label(record)).exists()


def send_unsent(limit: int = 1000) -> int:
    """Hand the kept tasks to the broker again, oldest first (the schedule's tick); stops at
    the first the broker still does not take. Returns how many were sent. Each task is safe to
    run twice (CELERY_TASK_ACKS_LATE), so a send whose row outlives it does no harm."""
    from .models import Unsent

    sent = 0
    with transaction.atomic():
        for kept in Unsent.objects.select_for_update(skip_locked=True)[:limit]:
            try:
                _send(kept.task, kept.args, kept.priority)
            except BrokerUnreachable as exc:
                Unsent.objects.filter(pk=kept.pk).update(tries=kept.tries + 1, error=str(exc))
                break
            kept.delete()
            sent += 1
    return sent


def _in_thread(name: str, args: tuple) -> None:
    close_old_connections()
    try:
        task(name)(*args)
    except Exception:  # the run records its own errors; this is a bug: logged, not lost
        log.exception("%s%r stopped", name, args)
    finally:
        connection.close()


def reevaluate(agency_id: int, establishment_ids, *, as_of: date | None) -> None:
    """Evaluate these establishments of the agency again on the workers, in tasks of
    REEVALUATE_BATCH (a write of many: fogkeeper/reevaluation.py asks on its commit). On the
    agency's today when `as_of` is None."""
    ids = sorted(set(establishment_ids))
    day = as_of.isoformat() if as_of is not None else ""
    for start in range(0, len(ids), REEVALUATE_BATCH):
        enqueue(REEVALUATE, agency_id, ids[start : start + REEVALUATE_BATCH], day)

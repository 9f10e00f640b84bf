"""An onboarding as a run of its own (Onboarding): the upload is stored, a worker reads it
(onboarding/tasks.py; here and now when no broker is set) storing how many rows it has read,
and the outcome is kept for its page. A confirmed dry run imports the same stored file.
A run whose worker died (no heartbeat for a minute) is seen stopped on its page, and may be
run again (`again`) or, an import, confirmed again from its dry run."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import connections
from django.utils.timezone import now

from fogkeeper import uploads
from fogkeeper.queue import enqueue
from fogkeeper.registry.models import Agency

from .importer import OnboardingError, onboard
from .models import MAX_PROBLEMS_KEPT, Onboarding

log = logging.getLogger(__name__)
STOPPED = (
    "Its worker stopped before it finished, with no sign of it since; it was confirmed "
    "again (a record is never stored twice)."
)


def start_dry_run(*, agency: Agency, kind: str, upload: UploadedFile, user=None) -> Onboarding:
    run = Onboarding(
        agency=agency, kind=kind, filename=Path(upload.name or "file").name, requested_by=user
    )
    with uploads.atomic():  # the file is kept only with its run
        run.file.save(run.filename, upload, save=False)
        run.save()
    queue(run)
    return run


def confirm(dry_run: Onboarding, user=None) -> Onboarding:
    """The import of a clean dry run's file, queued (an earlier import of it whose worker
    died is marked as stopped: this one takes its place)."""
    for dead in dry_run.imports.filter(status=Onboarding.RUNNING):
        if dead.died():
            dead.finish(Onboarding.FAILED, error=STOPPED)
    run = Onboarding.objects.create(
        agency=dry_run.agency,
        kind=dry_run.kind,
        dry_run=False,
        checked=dry_run,
        file=dry_run.file.name,
        filename=dry_run.filename,
        requested_by=user,
        rows_total=dry_run.rows_total,
    )
    queue(run)
    return run


def queue(run: Onboarding) -> None:
    enqueue("fogkeeper.onboarding.run", run.pk, record=run)


def again(run: Onboarding) -> None:
    """Queue a stalled or dead run again, seen as queued until a worker takes it."""
    Onboarding.objects.filter(pk=run.pk).update(status=Onboarding.QUEUED, progress_at=now())
    queue(run)


class Heartbeat:
    """While a run is read, a thread of its worker stores every FOGKEEPER_ONBOARDING_HEARTBEAT
    seconds that it lives, with the rows read so far, on a connection of its own: outside the
    import's transaction, so its page sees them. A worker killed (kill -9) stops beating, and
    its run is seen dead (Onboarding.died) within FOGKEEPER_ONBOARDING_DEAD_AFTER seconds."""

    def __init__(self, run: Onboarding):
        self.run, self.done, self.total = run, 0, run.rows_total
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._beat, name=f"onboarding-{run.pk}", daemon=True)

    def progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    def beat(self) -> None:
        Onboarding.objects.filter(pk=self.run.pk, status=Onboarding.RUNNING).update(
            progress_at=now(), rows_read=self.done, rows_total=self.total
        )

    def _beat(self) -> None:
        try:
            while not self.stopped.wait(settings.FOGKEEPER_ONBOARDING_HEARTBEAT):
                self.beat()
        except Exception:  # the run goes on; without beats its page will say it stopped
            log.exception("the heartbeat of onboarding %s stopped", self.run.pk)
        finally:
            connections.close_all()  # this thread's own

    def __enter__(self) -> Heartbeat:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopped.set()
        self.thread.join()


def carry_out(run_id: int) -> Onboarding | None:
    run = Onboarding.objects.filter(pk=run_id).select_related("agency", "requested_by").first()
    if run is None or not run.underway:
        return run
    run.read_rows()
    try:
        with run.file.open("rb") as f:
            data = f.read()
        with Heartbeat(run) as heart:
            outcome = onboard(
                agency=run.agency,
                kind=run.kind,
                data=data,
                name=run.filename,
                today=run.agency.today(),
                dry_run=run.dry_run,
                actor=run.requested_by,
                progress=heart.progress,
            )
    except (OnboardingError, OSError) as e:
        error = str(e).replace("\x00", "")  # PostgreSQL stores no NUL, not even in a message
        return run.finish(Onboarding.FAILED, error=f"{error}; nothing was stored.")
    except Exception as e:  # kept for its page: the import's transaction stored nothing
        log.exception("onboarding %s failed", run.pk)
        return run.finish(
            Onboarding.FAILED,
            error=f"It stopped on an unexpected error ({type(e).__name__}, in the server's log); "
            "nothing was stored.",
        )
    run.rows_read = run.rows_total = outcome.rows
    run.counts = outcome.counts
    run.problem_count = len(outcome.problems)
    run.warnings = outcome.warnings
    run.problems = [[p.row, p.column, p.reason] for p in outcome.problems[:MAX_PROBLEMS_KEPT]]
    return run.finish(Onboarding.COMPLETE)

"""An onboarding as a run of its own (Onboarding): the upload is stored, a worker reads it
(onboarding/tasks.py; here and now when no broker is set) storing how many rows it has read,
and the outcome is kept for its page. A confirmed dry run imports the same stored file."""

from __future__ import annotations

import logging
from pathlib import Path

from django.core.files.uploadedfile import UploadedFile

from fogkeeper import uploads
from fogkeeper.queue import enqueue
from fogkeeper.registry.models import Agency

from .importer import OnboardingError, onboard
from .models import MAX_PROBLEMS_KEPT, Onboarding

log = logging.getLogger(__name__)


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
    """The import of a clean dry run's file, queued."""
    run = Onboarding.objects.create(
        agency=dry_run.agency, kind=dry_run.kind, dry_run=False, checked=dry_run,
        file=dry_run.file.name, filename=dry_run.filename, requested_by=user,
        rows_total=dry_run.rows_total,
    )  # fmt: skip
    queue(run)
    return run


def queue(run: Onboarding) -> None:
    enqueue("fogkeeper.onboarding.run", run.pk)


def carry_out(run_id: int) -> Onboarding | None:
    run = Onboarding.objects.filter(pk=run_id).select_related("agency", "requested_by").first()
    if run is None or not run.underway:
        return run
    rows_read = run.read_rows()
    try:
        with run.file.open("rb") as f:
            data = f.read()
        outcome = onboard(
            agency=run.agency, kind=run.kind, data=data, name=run.filename,
            today=run.agency.today(), dry_run=run.dry_run, actor=run.requested_by,
            progress=rows_read,
        )  # fmt: skip
    except (OnboardingError, OSError) as e:
        return run.finish(Onboarding.FAILED, error=f"{e}; nothing was stored.")
    except Exception as e:  # kept for its page: the import's transaction stored nothing
        log.exception("onboarding %s failed", run.pk)
        return run.finish(Onboarding.FAILED, error=f"It stopped on an error: {e}.")
    run.rows_read = run.rows_total = outcome.rows
    run.counts = outcome.counts
    run.problem_count = len(outcome.problems)
    run.problems = [[p.row, p.column, p.reason] for p in outcome.problems[:MAX_PROBLEMS_KEPT]]
    return run.finish(Onboarding.COMPLETE)

"""A CIWQS export imported as a run of its own (IncidentImport): uploaded from the import
page, the file is checked at once (a file that is not a CIWQS export is refused and nothing
is kept), stored, and imported by a worker (incidents/tasks.py; inline when no broker is set),
its progress stored as it reads; then the establishments its new incidents were matched to
are evaluated again (ciwqs.py asks, on commit).

The import itself writes in one transaction (ciwqs.py): a run that stops on an error has
imported nothing, and may be queued again; a spill already imported is left as it is, so a
run redone after its worker was killed creates each incident once.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from django.core.files.uploadedfile import UploadedFile

from fogkeeper import uploads
from fogkeeper.queue import enqueue
from fogkeeper.registry.models import Agency

from .ciwqs import CiwqsClash, CiwqsFileError, ciwqs_import, read_export
from .models import IncidentImport

log = logging.getLogger(__name__)
CLASHED = (
    "Another import of the agency stored some of the same spills while this one was reading "
    "the file; nothing of this one was imported. Queue it again: the spills now present are "
    "left as they are and the rest are imported."
)


def check_upload(upload: UploadedFile) -> int:
    """The number of rows of an uploaded export; CiwqsFileError naming what is wrong."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / Path(upload.name or "export.csv").name
        with path.open("wb") as out:
            for chunk in upload.chunks():
                out.write(chunk)
        _, records = read_export(path)
    upload.seek(0)
    return len(records)


def start_import(
    *, agency: Agency, upload: UploadedFile, rows: int, wdids: list[str], user=None
) -> IncidentImport:
    """Store the checked upload as an import of `agency` and queue it."""
    run = IncidentImport(
        agency=agency,
        filename=Path(upload.name or "").name,
        wdids=wdids,
        requested_by=user,
        rows_total=rows,
    )
    with uploads.atomic():  # the file is kept only with its run
        run.file.save(run.filename, upload, save=False)
        run.save()
    queue(run)
    return run


def queue(run: IncidentImport) -> None:
    """Hand the stored import to a worker (here and now when no broker is set)."""
    enqueue("fogkeeper.incidents.import", run.pk, record=run)


def run_import(run_id: int) -> IncidentImport | None:
    """Import the run's file, storing the rows read as it goes; a run no longer under way is
    left as it is."""
    run = IncidentImport.objects.filter(pk=run_id).select_related("agency").first()
    if run is None or not run.underway:
        return run
    rows_read = run.read_rows()
    try:
        result = ciwqs_import(
            agency=run.agency,
            path=run.file.path,
            actor=run.requested_by,
            wdids=run.wdids,
            rows_read=rows_read,
        )
    except (CiwqsFileError, OSError) as e:
        return run.finish(IncidentImport.FAILED, error=f"{e}; nothing was imported.")
    except CiwqsClash:  # the same spills stored by another writer while this one read
        return run.finish(IncidentImport.FAILED, error=CLASHED)
    except Exception as e:  # recorded for its page: the import's transaction stored nothing
        log.exception("CIWQS import %s failed", run.pk)
        return run.finish(IncidentImport.FAILED, error=f"It stopped on an error: {e}.")
    run.counts, run.summary = result.counts(), result.summary()
    run.reevaluated = len(result.establishments)  # queued by the import (ciwqs.py)
    return run.finish(IncidentImport.COMPLETE)

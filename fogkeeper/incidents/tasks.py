"""The CIWQS import started from the import page, as a task (imports.py)."""

from __future__ import annotations

from celery import shared_task

from .imports import run_import


@shared_task(name="fogkeeper.incidents.import")
def incident_import(run_id: int) -> str:
    """Carry out the IncidentImport `run_id`; returns its status."""
    run = run_import(run_id)
    return run.status if run else "gone"

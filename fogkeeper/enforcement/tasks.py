"""Letters in bulk as a task: a bulk notice run (bulk.py) skips the establishments already
sent or refused, so the task is safe to run twice."""

from celery import shared_task

from .bulk import run_bulk_notice


@shared_task(name="fogkeeper.enforcement.bulk_notice")
def bulk_notice(run_id: int) -> None:
    run_bulk_notice(run_id)

"""`manage.py resume_bulk_notices`: finish the bulk notices a restart stopped halfway.

A run sends one establishment at a time, each in its own transaction, and skips those it
already sent or refused, so running it again sends only what is left."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from fogkeeper.compliance.from_findings import run_bulk_notice
from fogkeeper.enforcement.models import BulkNotice


class Command(BaseCommand):
    help = "Finish the bulk notices not finished (a run stopped by a restart)."

    def handle(self, *args, **options) -> None:
        runs = BulkNotice.objects.filter(finished_at__isnull=True).order_by("created_at")
        if not runs.exists():
            self.stdout.write("No bulk notice is unfinished.")
        for run in runs:
            before = run.done
            run = run_bulk_notice(run.pk)
            self.stdout.write(
                f"Bulk notice {run.pk} ({run.agency.code}, {run.action_type}): "
                f"{run.done - before} more done; {len(run.sent)} sent, "
                f"{len(run.refused)} refused in all."
            )

"""An onboarding of one spreadsheet, uploaded from the onboarding page and read by a worker:
a dry run first (what would be created and updated, every row's problem), then, confirmed,
the same stored file imported."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from fogkeeper.jobs import Job

from .catalog import KINDS

MAX_PROBLEMS_KEPT = 5_000


class Onboarding(Job):
    STATUSES = [
        (Job.QUEUED, "Queued"),
        (Job.RUNNING, "Running"),
        (Job.COMPLETE, "Complete"),
        (Job.FAILED, "Stopped: nothing stored"),
    ]

    agency = models.ForeignKey("registry.Agency", on_delete=models.PROTECT)
    kind = models.CharField(max_length=20, choices=[(k.name, k.title) for k in KINDS.values()])
    dry_run = models.BooleanField(default=True)
    checked = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="imports",
        help_text="the dry run this import was confirmed from",
    )
    file = models.FileField(upload_to="imports/onboarding/%Y/%m/")
    filename = models.CharField(max_length=255)
    status = models.CharField(max_length=10, choices=STATUSES, default=Job.QUEUED)
    rows_total = models.PositiveIntegerField(default=0)
    rows_read = models.PositiveIntegerField(default=0)
    counts = models.JSONField(default=dict, blank=True)  # created, updated, unchanged
    problems = models.JSONField(default=list, blank=True)  # [row, column, reason], the first
    problem_count = models.PositiveIntegerField(default=0)
    # what was read and is told, not refused: rounded coordinates, points out of the area,
    # devices without pump-out history
    warnings = models.JSONField(default=list, blank=True, db_default=[])

    def __str__(self) -> str:
        what = "dry run" if self.dry_run else "import"
        return f"Onboarding {what} of {self.filename} ({self.status})"

    @property
    def stored(self) -> bool:
        return self.status == Job.COMPLETE and not self.dry_run and not self.problem_count

    def died(self, now=None) -> bool:
        """Running, and no beat of its worker for FOGKEEPER_ONBOARDING_DEAD_AFTER seconds: its
        process was killed (the worker beats every FOGKEEPER_ONBOARDING_HEARTBEAT seconds
        while it reads, runs.Heartbeat), so it will not finish."""
        last = self.progress_at or self.started_at or self.created_at
        limit = timedelta(seconds=settings.FOGKEEPER_ONBOARDING_DEAD_AFTER)
        return self.status == Job.RUNNING and (now or timezone.now()) - last > limit

    def stalled(self, now=None) -> bool:
        """Queued again from its page: stalled as any run, or its worker dead."""
        return super().stalled(now) or self.died(now)

    @property
    def may_confirm(self) -> bool:
        """A clean dry run may be imported as it was checked, once: again only if its import
        stopped (its worker died, or it failed) without storing it."""
        return (
            self.dry_run
            and self.status == Job.COMPLETE
            and not self.problem_count
            and not any(i.status != Job.FAILED and not i.died() for i in self.imports.all())
        )

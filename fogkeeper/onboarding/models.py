"""An onboarding of one spreadsheet, uploaded from the onboarding page and read by a worker:
a dry run first (what would be created and updated, every row's problem), then, confirmed,
the same stored file imported."""

from __future__ import annotations

from django.db import models

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
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="imports",
        help_text="the dry run this import was confirmed from",
    )  # fmt: skip
    file = models.FileField(upload_to="imports/onboarding/%Y/%m/")
    filename = models.CharField(max_length=255)
    status = models.CharField(max_length=10, choices=STATUSES, default=Job.QUEUED)
    rows_total = models.PositiveIntegerField(default=0)
    rows_read = models.PositiveIntegerField(default=0)
    counts = models.JSONField(default=dict, blank=True)  # created, updated, unchanged
    problems = models.JSONField(default=list, blank=True)  # [row, column, reason], the first
    problem_count = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        what = "dry run" if self.dry_run else "import"
        return f"Onboarding {what} of {self.filename} ({self.status})"

    @property
    def stored(self) -> bool:
        return self.status == Job.COMPLETE and not self.dry_run and not self.problem_count

    @property
    def may_confirm(self) -> bool:
        """A clean dry run, not confirmed yet, may be imported as it was checked."""
        return (
            self.dry_run and self.status == Job.COMPLETE and not self.problem_count
            and not self.imports.exists()
        )  # fmt: skip

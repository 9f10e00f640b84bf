"""What a piece of background work started from a page keeps of itself (the annual fee run,
the CIWQS import): who asked, its status, when it began, last moved and ended, and why it
stopped. Its page polls it while it is under way; one with no progress for
FOGKEEPER_SWEEP_STALLED_AFTER seconds may be queued again from there (the work is safe to
run twice)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.functional import cached_property

from fogkeeper import queue


class Job(models.Model):
    QUEUED, RUNNING, COMPLETE, FAILED = "queued", "running", "complete", "failed"
    UNDERWAY = (QUEUED, RUNNING)
    # Each kind of job declares these fields itself (its statuses; the rows of a file it reads).
    status: str
    rows_read: int
    rows_total: int
    get_status_display: Callable[[], str]

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    progress_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-pk"]

    @property
    def underway(self) -> bool:
        return self.status in self.UNDERWAY

    @cached_property
    def waiting(self) -> bool:
        """Queued while the broker could not be reached: its task is kept for the schedule's
        tick, which hands it to the workers once they can be reached (fogkeeper.queue)."""
        return self.status == self.QUEUED and queue.waiting(self)

    def status_words(self) -> str:
        """Its status as its pages say it: "Waiting for the workers" while it waits."""
        return queue.WAITING if self.waiting else self.get_status_display()

    def stalled(self, now=None) -> bool:
        """Under way, and nothing done for FOGKEEPER_SWEEP_STALLED_AFTER seconds."""
        last = self.progress_at or self.created_at
        limit = timedelta(seconds=settings.FOGKEEPER_SWEEP_STALLED_AFTER)
        return self.underway and last is not None and (now or timezone.now()) - last > limit

    def begin(self) -> None:
        self.status, self.started_at = self.RUNNING, self.started_at or timezone.now()
        self.progress_at = timezone.now()

    def read_rows(self):
        """Mark a run that reads a file's rows (`rows_read`, `rows_total`) as under way, none
        read yet; returns the callback its reader tells `(rows read, rows)` as it goes."""
        self.begin()
        self.rows_read = 0
        fields = ["status", "started_at", "rows_read", "progress_at"]
        self.save(update_fields=fields)  # a kind of job that reads rows has these fields

        def rows_read(done: int, total: int) -> None:
            self.rows_read, self.rows_total, self.progress_at = done, total, timezone.now()
            fields = ["rows_read", "rows_total", "progress_at"]
            self.save(update_fields=fields)

        return rows_read

    def finish(self, status: str, *, error: str = ""):
        self.status, self.error = status, error
        self.finished_at = self.progress_at = timezone.now()
        self.save()
        return self

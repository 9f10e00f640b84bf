"""A task the broker could not take when it was queued (fogkeeper.queue): kept here, with the
record whose page follows it, until the schedule's tick hands it to the broker again."""

from __future__ import annotations

from django.db import models


class Unsent(models.Model):
    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    priority = models.PositiveSmallIntegerField(null=True, blank=True)
    # "app_label.model:pk" of the record whose page says it waits for the workers, or ""
    record = models.CharField(max_length=120, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    tries = models.PositiveIntegerField(default=1)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)!r} ({self.record or 'no record'})"

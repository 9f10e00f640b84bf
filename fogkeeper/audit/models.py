"""The audit trail: every change of a record, who made it, before and after (written in the
same transaction as the change; never edited or deleted)."""

from django.conf import settings
from django.db import models


class AuditEvent(models.Model):
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    agency = models.ForeignKey(
        "registry.Agency", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The establishment the record is about (itself, or the one its device, service, permit…
    # belongs to), for its own trail. No database constraint: an establishment deleted after
    # its retention period leaves its audit rows as they were, naming it still.
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment",
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        db_index=True,
        related_name="+",
    )
    action = models.CharField(max_length=64, help_text="e.g. permit.issue")
    object_type = models.CharField(max_length=64)
    object_id = models.CharField(max_length=64)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [
            models.Index(fields=["object_type", "object_id"]),
            models.Index(fields=["agency", "action"], name="audit_agency_action_idx"),
            models.Index(fields=["agency", "object_type"], name="audit_agency_type_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_type} {self.object_id}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("audit events are never changed; record a new one")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("audit events are never deleted")

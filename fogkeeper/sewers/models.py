"""The cleaning of public sewer segments, above all those prone to blockages (the Sewer System
Management Plan's FOG control program, General Order WQ 2022-0103-DWQ)."""

from django.conf import settings
from django.db import models

FOG_LEVELS = [("none", "None"), ("light", "Light"), ("moderate", "Moderate"), ("heavy", "Heavy")]
METHODS = [
    ("hydro_jet", "Hydro-jetting"),
    ("rodding", "Rodding"),
    ("bucket", "Bucket machine"),
    ("vacuum", "Vacuum (vactor) truck"),
    ("root_cut", "Root cutting"),
    ("other", "Other"),
]


class SegmentCleaning(models.Model):
    agency = models.ForeignKey(
        "registry.Agency", on_delete=models.PROTECT, related_name="segment_cleanings"
    )
    segment = models.ForeignKey(
        "registry.SewerSegment", on_delete=models.PROTECT, related_name="cleanings"
    )
    cleaned_on = models.DateField(db_index=True)
    crew = models.CharField(max_length=120)
    method = models.CharField(max_length=20, choices=METHODS)
    fog_found = models.CharField(max_length=10, choices=FOG_LEVELS)
    notes = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-cleaned_on", "-id"]
        indexes = [models.Index(fields=["segment", "cleaned_on"])]

    def __str__(self) -> str:
        return f"{self.segment} cleaned on {self.cleaned_on}"

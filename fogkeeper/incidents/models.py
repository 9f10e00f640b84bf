"""Sewer overflows, spills and blockages, entered by staff or imported from CIWQS."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from fogkeeper.jobs import Job

SOURCES = [("staff", "Entered by staff"), ("ciwqs", "CIWQS export")]
CATEGORIES = [(1, "Category 1"), (2, "Category 2"), (3, "Category 3"), (4, "Category 4")]
CATEGORY_SOURCES = [("derived", "Derived from the spill's volumes"), ("staff", "Set by staff")]


class Incident(models.Model):
    agency = models.ForeignKey(
        "registry.Agency", on_delete=models.PROTECT, related_name="incidents"
    )
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="incidents",
        help_text="empty when the spill matched no establishment",
    )
    segment = models.ForeignKey(
        "registry.SewerSegment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="incidents",
        help_text="the public sewer segment the spill came from, where known",
    )
    code = models.CharField(max_length=60)
    date = models.DateField(db_index=True)
    kind = models.CharField(max_length=40, default="overflow", help_text="overflow, spill, ...")
    attributed = models.BooleanField(default=False, help_text="the FSE caused or contributed")
    fog_caused = models.BooleanField(default=False)
    gallons = models.DecimalField(max_digits=12, decimal_places=1, null=True, blank=True)
    address = models.CharField(max_length=200, blank=True)
    normalised_address = models.CharField(max_length=200, blank=True, db_index=True)
    latitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    longitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    cause = models.CharField(max_length=200, blank=True)
    # What the State's General Order WQ 2022-0103-DWQ asks of a spill (reporting pack).
    category = models.PositiveSmallIntegerField(choices=CATEGORIES, null=True, blank=True)
    category_source = models.CharField(max_length=10, choices=CATEGORY_SOURCES, blank=True)
    started_at = models.DateTimeField(null=True, blank=True, help_text="spill start")
    ended_at = models.DateTimeField(null=True, blank=True, help_text="spill end")
    known_at = models.DateTimeField(
        null=True, blank=True, help_text="when the agency learned of the spill"
    )
    gallons_recovered = models.DecimalField(max_digits=12, decimal_places=1, null=True, blank=True)
    gallons_to_surface_water = models.DecimalField(
        max_digits=12, decimal_places=1, null=True, blank=True
    )
    reached_surface_water = models.BooleanField(null=True, blank=True)
    reached_storm_drain = models.BooleanField(null=True, blank=True)
    storm_drain_fully_captured = models.BooleanField(
        null=True, blank=True, help_text="all that reached the storm drain returned to the sewer"
    )
    oes_notified_at = models.DateTimeField(
        null=True, blank=True, help_text="California Office of Emergency Services notified"
    )
    oes_control_number = models.CharField(max_length=40, blank=True)
    notification_certified_at = models.DateTimeField(null=True, blank=True)
    draft_report_on = models.DateField(null=True, blank=True)
    certified_report_on = models.DateField(null=True, blank=True)
    amended_report_on = models.DateField(null=True, blank=True)
    technical_report_on = models.DateField(null=True, blank=True)
    written_report_on = models.DateField(null=True, blank=True)
    clearance_inspection_on = models.DateField(null=True, blank=True)
    source = models.CharField(max_length=10, choices=SOURCES, default="staff")
    source_record = models.JSONField(null=True, blank=True, help_text="the imported row, as read")
    reviewed_on = models.DateField(
        null=True, blank=True, help_text="when staff matched an imported spill or set it aside"
    )
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    review_note = models.TextField(
        blank=True, help_text="why an imported spill was not from a food service establishment"
    )

    class Meta:
        ordering = ["-date"]
        constraints = [
            models.UniqueConstraint(fields=["agency", "code"], name="incident_code_unique"),
            models.CheckConstraint(
                condition=Q(gallons__isnull=True) | Q(gallons__gte=0),
                name="incident_gallons_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(gallons_recovered__isnull=True) | Q(gallons_recovered__gte=0),
                name="incident_recovered_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(gallons_to_surface_water__isnull=True)
                | Q(gallons_to_surface_water__gte=0),
                name="incident_surface_water_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True)
                | Q(started_at__isnull=True)
                | Q(ended_at__gte=F("started_at")),
                name="incident_spill_ends_after_start",
            ),
            models.CheckConstraint(
                condition=Q(written_report_on__isnull=True) | Q(written_report_on__gte=F("date")),
                name="incident_report_after_incident",
            ),
            models.CheckConstraint(
                condition=Q(clearance_inspection_on__isnull=True)
                | Q(clearance_inspection_on__gte=F("date")),
                name="incident_clearance_after_incident",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.code} on {self.date}"

    @property
    def to_review(self) -> bool:
        """An imported spill no establishment was matched to, not yet looked at by staff."""
        return self.source == "ciwqs" and self.establishment_id is None and not self.reviewed_on

    @property
    def is_open(self) -> bool:
        """An attributed incident whose written report or clearance inspection is missing."""
        return self.attributed and (
            self.written_report_on is None or self.clearance_inspection_on is None
        )


class IncidentImport(Job):
    """One CIWQS export uploaded from the import page (ciwqs.py), imported by a worker (or
    inline when no broker is set): its progress while it runs, then what it created, matched
    and skipped, and how many establishments were evaluated again."""

    STATUSES = [
        (Job.QUEUED, "Queued"),
        (Job.RUNNING, "Running"),
        (Job.COMPLETE, "Complete"),
        (Job.FAILED, "Stopped: nothing imported"),
    ]

    agency = models.ForeignKey("registry.Agency", on_delete=models.PROTECT)
    file = models.FileField(upload_to="imports/ciwqs/%Y/%m/")
    filename = models.CharField(max_length=255)
    wdids = models.JSONField(default=list, blank=True)  # only these sewer systems, when given
    status = models.CharField(max_length=10, choices=STATUSES, default=Job.QUEUED)
    rows_total = models.PositiveIntegerField(default=0)
    rows_read = models.PositiveIntegerField(default=0)
    counts = models.JSONField(default=dict, blank=True)  # CiwqsImport.counts()
    summary = models.JSONField(default=list, blank=True)  # CiwqsImport.summary(), its lines
    reevaluated = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"CIWQS import {self.filename} ({self.status})"

"""A report the agency requires of an establishment, and the reports submitted for it."""

from __future__ import annotations

from datetime import date

from django.db import models
from django.db.models import F, Q

from fogkeeper.rules.calendar import add_months


class ReportRequirement(models.Model):
    """A kind of report (one of the pack's `reports:`) the manager requires, due on
    `first_due_on` and, when `every_months` is set, every that many months after it, until
    `ended_on` (no report falls due on or after it)."""

    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment",
        on_delete=models.PROTECT,
        related_name="report_requirements",
    )
    kind = models.CharField(max_length=40, help_text="one of the pack's kinds of report")
    required_on = models.DateField()
    first_due_on = models.DateField()
    every_months = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="months between reports; blank: once"
    )
    ended_on = models.DateField(null=True, blank=True)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["first_due_on", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(first_due_on__gte=F("required_on")), name="report_due_after_required"
            ),
            models.CheckConstraint(
                condition=Q(every_months__isnull=True) | Q(every_months__gt=0),
                name="report_every_months_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} due {self.first_due_on}"

    @property
    def title(self) -> str:
        """The pack's title of the kind of report."""
        kind = self.establishment.agency.get_pack().reports.get(self.kind)
        return kind.title if kind is not None else self.kind

    @property
    def citation(self) -> str:
        kind = self.establishment.agency.get_pack().reports.get(self.kind)
        return kind.citation if kind is not None else ""

    @property
    def monitoring_citation(self) -> str:
        """The section letting the agency monitor and bill when the report is not done; ""
        where its kind has none."""
        kind = self.establishment.agency.get_pack().reports.get(self.kind)
        return kind.monitoring_citation if kind is not None else ""

    def due_dates(self, until: date) -> list[date]:
        """Its due dates on or before `until`, and the first one after it (the next due),
        none on or after `ended_on`."""
        out: list[date] = []
        n = 0
        while True:
            due = self.first_due_on
            if self.every_months:
                due = add_months(self.first_due_on, n * self.every_months)
            if self.ended_on is not None and due >= self.ended_on:
                return out
            out.append(due)
            if due > until or not self.every_months:
                return out
            n += 1


class ReportSubmission(models.Model):
    """The report submitted for one due date of a requirement, with its file."""

    requirement = models.ForeignKey(
        ReportRequirement, on_delete=models.PROTECT, related_name="submissions"
    )
    due_on = models.DateField(help_text="the due date it answers")
    submitted_on = models.DateField()
    file = models.FileField(upload_to="reports/%Y/%m/")
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["due_on"]
        constraints = [
            models.UniqueConstraint(
                fields=["requirement", "due_on"], name="report_submitted_once_per_due_date"
            )
        ]

    def __str__(self) -> str:
        return f"{self.requirement.title} due {self.due_on}, submitted {self.submitted_on}"


class AgencyMonitoring(models.Model):
    """The monitoring the agency did itself for a due date whose report was not done, where
    the pack's kind of report lets it (`monitoring_citation`), and the invoice of its cost
    to the permittee."""

    requirement = models.ForeignKey(
        ReportRequirement, on_delete=models.PROTECT, related_name="monitorings"
    )
    due_on = models.DateField(help_text="the due date whose report was not done")
    performed_on = models.DateField()
    cost = models.DecimalField(max_digits=12, decimal_places=2)
    invoice = models.OneToOneField(
        "billing.Invoice", on_delete=models.PROTECT, related_name="report_monitoring"
    )
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["due_on"]
        constraints = [
            models.UniqueConstraint(
                fields=["requirement", "due_on"], name="report_monitored_once_per_due_date"
            ),
            models.CheckConstraint(condition=Q(cost__gt=0), name="report_monitoring_cost"),
        ]

    def __str__(self) -> str:
        return f"Monitoring of {self.performed_on} for {self.requirement.title} due {self.due_on}"

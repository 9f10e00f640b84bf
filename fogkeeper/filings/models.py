"""A request filed by an operator under a section of its ordinance (a kind its pack's
requests.yaml declares) and the agency's answer to it, kept on the request: a request is
answered once; a new request is filed for anything more."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

OUTCOMES = [
    ("granted", "Granted"),
    ("denied", "Denied"),
    ("delivered", "Delivered"),
    ("acknowledged", "Received"),
]


class Filing(models.Model):
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="filings"
    )
    kind = models.CharField(max_length=60, help_text="the request's key in the pack")
    device = models.ForeignKey(
        "registry.GreaseControlDevice",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    permit = models.ForeignKey(
        "permits.Permit", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    hearing = models.ForeignKey(
        "enforcement.EnforcementAction",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    filed_on = models.DateField()
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    frequency_days = models.PositiveIntegerField(null=True, blank=True)
    grounds = models.TextField(blank=True)
    accumulation = models.TextField(blank=True)
    due_on = models.DateField(null=True, blank=True, help_text="answer or delivery due by")
    outcome = models.CharField(max_length=20, choices=OUTCOMES, blank=True)
    decided_on = models.DateField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    reasons = models.TextField(blank=True)
    granted_frequency_days = models.PositiveIntegerField(null=True, blank=True)
    cost = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    permit_modification = models.ForeignKey(
        "permits.PermitModification",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-filed_on", "-pk"]
        indexes = [models.Index(fields=["establishment", "filed_on"])]
        constraints = [
            models.CheckConstraint(
                condition=(Q(outcome="") & Q(decided_on__isnull=True))
                | (~Q(outcome="") & Q(decided_on__isnull=False)),
                name="filing_outcome_with_its_day",
            ),
            models.CheckConstraint(
                condition=Q(decided_on__isnull=True) | Q(decided_on__gte=models.F("filed_on")),
                name="filing_decided_after_filed",
            ),
            models.CheckConstraint(
                condition=Q(cost__isnull=True) | Q(cost__gte=0), name="filing_cost_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"request {self.pk} of {self.establishment.code} ({self.kind})"

    @property
    def is_open(self) -> bool:
        return not self.outcome

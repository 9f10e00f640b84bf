"""Money: the fee schedule an agency's council sets by resolution (San Clemente 13.30.050(M),
(N); Town 10.02.360), invoices and the payments against them. Amounts are `Decimal` dollars.

Invoices and payments are never edited or deleted: a correction is a new record."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q, Sum

from fogkeeper.enforcement.models import Immutable
from fogkeeper.jobs import Job

BASES = [
    ("annual", "Annual"),
    ("quarterly", "Quarterly"),
    ("per_occurrence", "Per occurrence"),
    ("actual_cost", "Actual cost"),
]
INVOICE_KINDS = [
    ("fee", "Fee"),
    ("penalty", "Penalty"),
    ("cost_recovery", "Cost recovery"),
    ("noncompliance", "Noncompliance charges"),
    ("action_costs", "Costs of an enforcement action"),
]
PAYMENT_METHODS = [
    ("check", "Check"),
    ("cash", "Cash"),
    ("card", "Card"),
    ("transfer", "Bank transfer"),
    ("other", "Other"),
]
ZERO = Decimal("0.00")


def _money(**kw) -> models.DecimalField:
    return models.DecimalField(max_digits=12, decimal_places=2, **kw)


class FeeSchedule(models.Model):
    """The fees an agency charges from `effective_on` until the next schedule takes effect."""

    agency = models.ForeignKey(
        "registry.Agency", on_delete=models.PROTECT, related_name="fee_schedules"
    )
    effective_on = models.DateField()
    resolution = models.CharField(max_length=120, blank=True, help_text="e.g. Res. 2025-14")

    class Meta:
        ordering = ["agency", "-effective_on"]
        constraints = [
            models.UniqueConstraint(
                fields=["agency", "effective_on"], name="fee_schedule_one_per_date"
            )
        ]

    def __str__(self) -> str:
        return f"{self.agency} fees from {self.effective_on}"


class FeeItem(models.Model):
    schedule = models.ForeignKey(FeeSchedule, on_delete=models.PROTECT, related_name="items")
    code = models.CharField(max_length=40)
    description = models.CharField(max_length=200)
    amount = _money(null=True, blank=True, help_text="empty for a charge at actual cost")
    basis = models.CharField(max_length=20, choices=BASES)
    citation = models.CharField(max_length=120)

    class Meta:
        ordering = ["schedule", "code"]
        constraints = [
            models.UniqueConstraint(fields=["schedule", "code"], name="fee_item_code_unique"),
            models.CheckConstraint(
                condition=(Q(basis="actual_cost") & Q(amount__isnull=True))
                | (~Q(basis="actual_cost") & Q(amount__gte=0)),
                name="fee_item_amount_unless_actual_cost",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.description}"


class Invoice(models.Model):
    agency = models.ForeignKey("registry.Agency", on_delete=models.PROTECT, related_name="invoices")
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="invoices"
    )
    code = models.CharField(max_length=40)
    kind = models.CharField(max_length=20, choices=INVOICE_KINDS)
    noticed_on = models.DateField(db_index=True, help_text="the date of notice (mailed)")
    description = models.CharField(max_length=200, blank=True)
    incident = models.ForeignKey(
        "incidents.Incident",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="invoices",
        help_text="the overflow whose costs are recovered",
    )
    enforcement_action = models.CharField(
        max_length=60, blank=True, help_text="the action invoiced: its penalty or costs"
    )

    class Meta:
        ordering = ["establishment", "noticed_on", "code"]
        # the list of the agency's invoices, newest notice first (web/reports/lists.py)
        indexes = [
            models.Index(fields=["agency", "-noticed_on", "-code"], name="invoice_agency_noticed")
        ]
        constraints = [
            models.UniqueConstraint(fields=["agency", "code"], name="invoice_code_unique"),
            models.CheckConstraint(
                condition=~Q(kind="cost_recovery") | Q(incident__isnull=False),
                name="invoice_cost_recovery_has_incident",
            ),
            models.CheckConstraint(
                condition=~Q(kind="penalty") | ~Q(enforcement_action=""),
                name="invoice_penalty_has_action",
            ),
        ]

    def __str__(self) -> str:
        return f"Invoice {self.code}"

    def total(self) -> Decimal:
        return self.lines.aggregate(t=Sum("amount"))["t"] or ZERO


class InvoiceLine(models.Model):
    invoice = models.ForeignKey(Invoice, on_delete=models.PROTECT, related_name="lines")
    position = models.PositiveSmallIntegerField()
    fee_item = models.ForeignKey(
        FeeItem, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    description = models.CharField(max_length=200)
    amount = _money()
    citation = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["invoice", "position"]
        constraints = [
            models.UniqueConstraint(fields=["invoice", "position"], name="invoice_line_position"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="invoice_line_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.description}: ${self.amount}"


class Payment(models.Model):
    invoice = models.ForeignKey(Invoice, on_delete=models.PROTECT, related_name="payments")
    paid_on = models.DateField()
    amount = _money()
    method = models.CharField(max_length=20, choices=PAYMENT_METHODS)
    reference = models.CharField(max_length=80, blank=True, help_text="check or receipt number")

    class Meta:
        ordering = ["invoice", "paid_on", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="payment_positive"),
        ]

    def __str__(self) -> str:
        return f"${self.amount} on {self.paid_on} for {self.invoice}"


ADJUSTMENT_KINDS = [("void", "Void"), ("credit", "Credit")]


class InvoiceAdjustment(Immutable):
    """A void or a credit of an invoice: reduces what is owed on it from `adjusted_on` on. A
    void credits whatever was still owed and closes the invoice to anything further."""

    invoice = models.ForeignKey(Invoice, on_delete=models.PROTECT, related_name="adjustments")
    kind = models.CharField(max_length=10, choices=ADJUSTMENT_KINDS)
    adjusted_on = models.DateField()
    amount = _money()
    reason = models.CharField(max_length=500)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["invoice", "adjusted_on", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gte=0), name="adjustment_not_negative"),
            models.UniqueConstraint(
                fields=["invoice"], condition=Q(kind="void"), name="adjustment_one_void"
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.get_kind_display()} of ${self.amount} on {self.adjusted_on} for {self.invoice}"
        )


class Lien(Immutable):
    """An unpaid penalty recorded as a lien against the real property (San Clemente
    13.30.080(I)(9); Town 10.02.330(I)), by its recorded document number."""

    agency = models.ForeignKey("registry.Agency", on_delete=models.PROTECT, related_name="liens")
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="liens"
    )
    enforcement_action = models.CharField(max_length=60, help_text="the penalty order's code")
    invoice = models.ForeignKey(
        Invoice, null=True, blank=True, on_delete=models.PROTECT, related_name="liens"
    )
    recorded_on = models.DateField()
    amount = _money()
    document_number = models.CharField(max_length=80, help_text="the recorder's document number")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["establishment", "recorded_on", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="lien_positive"),
            models.UniqueConstraint(
                fields=["agency", "document_number"], name="lien_document_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"Lien {self.document_number} for {self.enforcement_action}"


class LienRelease(Immutable):
    """The release of a lien, recorded as its own document."""

    lien = models.OneToOneField(Lien, on_delete=models.PROTECT, related_name="release")
    released_on = models.DateField()
    document_number = models.CharField(max_length=80)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Release {self.document_number} of {self.lien}"


class AnnualFeeRun(Job):
    """One invoicing of the annual inspection fee of a year to each active establishment
    (annual_runs.py), started from the annual-fees page and run by a worker (or inline): its
    progress while it runs and, once done, what was issued, already invoiced and refused."""

    STATUSES = [
        (Job.QUEUED, "Queued"),
        (Job.RUNNING, "Running"),
        (Job.COMPLETE, "Complete"),
        (Job.FAILED, "Stopped unfinished"),
    ]

    agency = models.ForeignKey("registry.Agency", on_delete=models.PROTECT)
    year = models.PositiveIntegerField()
    noticed_on = models.DateField()
    fee_code = models.CharField(max_length=32)
    status = models.CharField(max_length=10, choices=STATUSES, default=Job.QUEUED)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    issued = models.JSONField(default=list)  # establishment codes
    already = models.JSONField(default=list)  # establishment codes invoiced the year before
    refused = models.JSONField(default=list)  # [establishment code, reason]

    class Meta(Job.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["agency"],
                condition=Q(status__in=["queued", "running"]),
                name="one_annual_fee_run_at_a_time",
            )
        ]

    def __str__(self) -> str:
        return f"annual fees {self.year} ({self.agency_id}, {self.status})"

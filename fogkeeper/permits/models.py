"""Permits (San Clemente's Discharge Permit, the Town's FOG Permit) and their applications."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

PERMIT_STATUSES = [
    ("active", "Active"),
    ("ended", "Ended (new operator)"),
    ("suspended", "Suspended"),
    ("revoked", "Revoked"),
    ("superseded", "Superseded by a renewal"),
]


class PermitApplication(models.Model):
    """An application for a permit or its renewal, with the fields the ordinances ask for
    (Town 10.02.050(A); San Clemente's form is set by the Utilities Manager, 13.30.050(F)).
    Which fields each jurisdiction requires is its pack's `application.yaml`
    (permits.requirements)."""

    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="applications"
    )
    renewal_of = models.ForeignKey(
        "Permit", null=True, blank=True, on_delete=models.PROTECT, related_name="renewals"
    )
    submitted_on = models.DateField()
    applicant_name = models.CharField("name of the applicant", max_length=200)
    applicant_address = models.TextField("address of the applicant")
    business_name = models.CharField(
        "business name",
        max_length=200,
        blank=True,
        help_text="as listed in the business license records (Town 10.02.040(A), (B))",
    )
    emergency_contact_name = models.CharField(
        "emergency contact",
        max_length=200,
        blank=True,
        help_text="called when an overflow threatens health or safety (SC 13.30.080(H)(1))",
    )
    emergency_contact_phone = models.CharField(
        "emergency contact's phone", max_length=40, blank=True
    )
    building_permit_reference = models.CharField(
        "Building and Safety permit or documentation",
        max_length=200,
        blank=True,
        help_text="shown in lieu of the application's details (Town 10.02.050(B))",
    )
    wastewater_volume_gpd = models.PositiveIntegerField(
        "wastewater volume (gallons a day)", null=True, blank=True
    )
    wastewater_type = models.CharField("type of wastewater", max_length=200, blank=True)
    food_preparation_hours = models.CharField(
        "hours of daily food preparation", max_length=100, blank=True
    )
    cleaning_hours = models.CharField("hours of cleaning operations", max_length=100, blank=True)
    food_preparation = models.TextField(
        "food preparation", blank=True, help_text="description and type of food"
    )
    meals_per_day = models.PositiveIntegerField("meals served a day", null=True, blank=True)
    cleanup_procedures = models.TextField("cleanup procedures", blank=True)
    dining_capacity = models.PositiveIntegerField(
        "dining room capacity (seats)", null=True, blank=True
    )
    employee_count = models.PositiveIntegerField("number of employees", null=True, blank=True)
    kitchen_size_sq_ft = models.PositiveIntegerField(
        "size of the kitchen (sq ft)", null=True, blank=True
    )
    appliances_and_fixtures = models.TextField("kitchen appliances and fixtures", blank=True)
    other_information = models.TextField("other information", blank=True)
    decided_on = models.DateField(null=True, blank=True)
    approved = models.BooleanField(null=True, blank=True)
    missing_override = models.TextField(
        "why it was approved with required items missing", blank=True
    )

    class Meta:
        ordering = ["-submitted_on"]
        constraints = [
            models.CheckConstraint(
                condition=Q(decided_on__isnull=True) | Q(decided_on__gte=F("submitted_on")),
                name="application_decided_after_submitted",
            )
        ]

    def __str__(self) -> str:
        return f"application of {self.applicant_name} on {self.submitted_on}"


class Permit(models.Model):
    agency = models.ForeignKey("registry.Agency", on_delete=models.PROTECT, related_name="permits")
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="permits"
    )
    number = models.CharField(max_length=40)
    holder = models.CharField(max_length=200, help_text="the operator the permit was issued to")
    issued_on = models.DateField()
    expires_on = models.DateField()
    renewal_applied_on = models.DateField(null=True, blank=True)
    renewal_denied_on = models.DateField(
        null=True, blank=True, help_text="a timely renewal application was denied (RULES 11.7)"
    )
    suspended_from = models.DateField(null=True, blank=True)
    suspended_until = models.DateField(
        null=True,
        blank=True,
        help_text="the last day of the suspension; blank: until further order",
    )
    revoked_on = models.DateField(null=True, blank=True)
    service_frequency_days = models.PositiveIntegerField(null=True, blank=True)
    yellow_grease_frequency_days = models.PositiveIntegerField(null=True, blank=True)
    discharge_limits = models.JSONField(
        default=dict,
        blank=True,
        help_text="limits over the pack's, by parameter, e.g. "
        '{"oil_and_grease": {"max": 100, "unit": "mg/L"}}',
    )
    conditions = models.TextField(blank=True)
    status = models.CharField(max_length=20, choices=PERMIT_STATUSES, default="active")
    ended_on = models.DateField(null=True, blank=True)
    application = models.ForeignKey(
        PermitApplication, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["-issued_on"]
        constraints = [
            models.UniqueConstraint(fields=["agency", "number"], name="permit_number_unique"),
            models.CheckConstraint(
                condition=Q(expires_on__gte=F("issued_on")), name="permit_expires_after_issue"
            ),
            models.CheckConstraint(
                condition=Q(service_frequency_days__isnull=True) | Q(service_frequency_days__gt=0),
                name="permit_frequency_positive",
            ),
            models.CheckConstraint(
                condition=Q(yellow_grease_frequency_days__isnull=True)
                | Q(yellow_grease_frequency_days__gt=0),
                name="permit_yellow_grease_frequency_positive",
            ),
            models.CheckConstraint(
                condition=Q(suspended_until__isnull=True)
                | Q(suspended_from__isnull=False, suspended_until__gte=F("suspended_from")),
                name="permit_suspension_ends_after_it_starts",
            ),
        ]

    def clean(self) -> None:
        problems = discharge_limit_problems(self.discharge_limits)
        if problems:
            raise ValidationError({"discharge_limits": problems})

    def __str__(self) -> str:
        return self.number


def discharge_limit_problems(limits) -> list[str]:
    """What is wrong with a permit's discharge limits ({parameter: {max, unit}})."""
    if not isinstance(limits, dict):
        return [
            'Expected limits by parameter, e.g. {"oil_and_grease": {"max": 100, "unit": "mg/L"}}.'
        ]
    problems = []
    for parameter, limit in limits.items():
        if not isinstance(limit, dict) or set(limit) != {"max", "unit"}:
            problems.append(f"{parameter}: expected {{max, unit}}.")
            continue
        value, unit = limit["max"], limit["unit"]
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            problems.append(f"{parameter}: the maximum must be a number of zero or more.")
        if not isinstance(unit, str) or not unit.strip():
            problems.append(f"{parameter}: name the unit (e.g. mg/L).")
    return problems


class PermitLetter(models.Model):
    """A letter about a permit (the notice of a modification), the PDF kept byte for byte as
    it was sent, like enforcement letters."""

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="letters")
    kind = models.CharField(max_length=40, help_text="the pack's letter template it came from")
    pdf = models.BinaryField()
    sha256 = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("permit letters are never changed; add a new one")
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return f"{self.kind} for {self.permit.number}"


class PermitModification(models.Model):
    """A change of a permit's terms during its life, in effect from `effective_on`, after the
    written notice the ordinance requires (San Clemente 13.30.050(J); Town 10.02.060(C)).
    `changes` holds the new terms by Permit field; `applied_on` is set when they were written
    onto the permit (on or after `effective_on`, by `apply_permit_modifications`)."""

    permit = models.ForeignKey(Permit, on_delete=models.PROTECT, related_name="modifications")
    noticed_on = models.DateField("notice given on")
    effective_on = models.DateField("in effect from")
    changes = models.JSONField(default=dict)
    reason = models.TextField()
    inspection = models.ForeignKey(
        "inspections.Inspection",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="the Authorized Inspector's evaluation for permit non-compliance it follows",
    )
    letter = models.ForeignKey(
        PermitLetter, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    applied_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-effective_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(effective_on__gte=F("noticed_on")),
                name="modification_effective_after_notice",
            )
        ]

    def __str__(self) -> str:
        return f"modification of {self.permit.number} from {self.effective_on}"


PLAN_OUTCOMES = [("approved", "Approved"), ("returned", "Returned for correction")]


class PlanReview(models.Model):
    """Plans of a grease control device for new construction or a remodel, submitted to the
    agency and approved or returned before installation (San Clemente 13.30.060(B))."""

    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="plan_reviews"
    )
    submitted_on = models.DateField("plans submitted on")
    description = models.CharField("what the plans are for", max_length=200)
    decided_on = models.DateField("decided on", null=True, blank=True)
    outcome = models.CharField(max_length=20, choices=PLAN_OUTCOMES, blank=True)
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    notes = models.TextField(blank=True)
    document = models.FileField(upload_to="plan-reviews/%Y/", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-submitted_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(decided_on__isnull=True) | Q(decided_on__gte=F("submitted_on")),
                name="plan_review_decided_after_submitted",
            ),
            models.CheckConstraint(
                condition=Q(decided_on__isnull=True, outcome="")
                | (Q(decided_on__isnull=False) & ~Q(outcome="")),
                name="plan_review_outcome_with_decision",
            ),
        ]

    def __str__(self) -> str:
        return f"plans of {self.establishment.code} submitted {self.submitted_on}"

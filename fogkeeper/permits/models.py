"""Permits (San Clemente's Discharge Permit, the Town's FOG Permit) and their applications."""

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
    service_frequency_days = models.PositiveIntegerField(null=True, blank=True)
    yellow_grease_frequency_days = models.PositiveIntegerField(null=True, blank=True)
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
        ]

    def __str__(self) -> str:
        return self.number

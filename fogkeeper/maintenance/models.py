"""Pump-outs (services, each with its hauler's manifest) and waste cooking oil pickups."""

from django.conf import settings
from django.db import models
from django.db.models import Q

SOURCES = [
    ("staff", "Recorded by staff"),
    ("import", "Manifest file import"),
    ("hauler_form", "Submitted by the hauler (form)"),
    ("hauler_csv", "Submitted by the hauler (file)"),
    ("hauler_api", "Submitted by the hauler (API)"),
]
HAULER_SOURCES = {"hauler_form", "hauler_csv", "hauler_api"}
# What a manifest says of the pump-out: the same manifest sent again must say the same.
MANIFEST_CONTENT = (
    "device_id",
    "date",
    "full_pump_out",
    "gallons_removed",
    "fog_inches",
    "solids_inches",
    "final_chamber_floating_oil",
    "sludge_to_outlet_inches",
)


def _not_negative(field: str, name: str) -> models.CheckConstraint:
    return models.CheckConstraint(
        condition=Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__gte": 0}), name=name
    )


class Service(models.Model):
    """A pump-out or cleaning of a grease control device, with the depths measured before it."""

    device = models.ForeignKey(
        "registry.GreaseControlDevice", on_delete=models.PROTECT, related_name="services"
    )
    hauler = models.ForeignKey(
        "registry.Hauler", null=True, blank=True, on_delete=models.PROTECT, related_name="services"
    )
    manifest_number = models.CharField(max_length=60)
    date = models.DateField(db_index=True)
    full_pump_out = models.BooleanField(default=True)
    gallons_removed = models.DecimalField(max_digits=9, decimal_places=1, null=True, blank=True)
    fog_inches = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)
    solids_inches = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)
    final_chamber_floating_oil = models.BooleanField(null=True, blank=True)
    sludge_to_outlet_inches = models.DecimalField(
        max_digits=6, decimal_places=2, null=True, blank=True
    )
    notes = models.TextField(blank=True)
    source = models.CharField(
        max_length=20,
        choices=SOURCES,
        default="staff",
        help_text="who put it in fogkeeper: staff, a file import, or the hauler itself",
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="the hauler's login that submitted it",
    )

    class Meta:
        ordering = ["-date"]
        constraints = [
            # one manifest may cover several devices of one establishment on one date
            # (maintenance.services.service_record refuses any other reuse)
            models.UniqueConstraint(
                fields=["hauler", "manifest_number", "device"],
                name="manifest_unique_per_hauler_device",
            ),
            _not_negative("gallons_removed", "service_gallons_not_negative"),
            _not_negative("fog_inches", "service_fog_not_negative"),
            _not_negative("solids_inches", "service_solids_not_negative"),
            _not_negative("sludge_to_outlet_inches", "service_sludge_not_negative"),
        ]

    def __str__(self) -> str:
        return f"manifest {self.manifest_number} ({self.date})"

    @property
    def is_hauler_submitted(self) -> bool:
        return self.source in HAULER_SOURCES


class ServiceDispute(models.Model):
    """Staff's doubt about a pump-out, usually a hauler's submission. The service is kept; while
    a dispute is open the service does not count towards compliance. Withdrawing it is a
    date on this row, so the dispute itself stays on record."""

    service = models.ForeignKey(Service, on_delete=models.PROTECT, related_name="disputes")
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    raised_on = models.DateField()
    reason = models.TextField()
    withdrawn_on = models.DateField(null=True, blank=True)
    withdrawn_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-raised_on", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["service"],
                condition=Q(withdrawn_on__isnull=True),
                name="one_open_dispute_per_service",
            ),
            models.CheckConstraint(
                condition=Q(withdrawn_on__isnull=True) | Q(withdrawn_on__gte=models.F("raised_on")),
                name="dispute_withdrawn_after_raised",
            ),
        ]

    def __str__(self) -> str:
        return f"dispute of {self.service} raised {self.raised_on}"


class YellowGreasePickup(models.Model):
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="pickups"
    )
    hauler = models.ForeignKey(
        "registry.Hauler", null=True, blank=True, on_delete=models.PROTECT, related_name="pickups"
    )
    date = models.DateField(db_index=True)
    gallons = models.DecimalField(max_digits=9, decimal_places=1, null=True, blank=True)
    manifest_number = models.CharField(max_length=60, blank=True)

    class Meta:
        verbose_name = "yellow grease pickup"
        ordering = ["-date"]
        constraints = [_not_negative("gallons", "pickup_gallons_not_negative")]

    def __str__(self) -> str:
        return f"pickup on {self.date}"

"""Pump-outs (services, each with its hauler's manifest) and waste cooking oil pickups."""

from django.db import models
from django.db.models import Q


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

    class Meta:
        ordering = ["-date"]
        constraints = [
            models.UniqueConstraint(
                fields=["hauler", "manifest_number"], name="manifest_unique_per_hauler"
            ),
            _not_negative("gallons_removed", "service_gallons_not_negative"),
            _not_negative("fog_inches", "service_fog_not_negative"),
            _not_negative("solids_inches", "service_solids_not_negative"),
            _not_negative("sludge_to_outlet_inches", "service_sludge_not_negative"),
        ]

    def __str__(self) -> str:
        return f"manifest {self.manifest_number} ({self.date})"


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

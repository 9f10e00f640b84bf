"""Agency inspections: measurements of devices and answers to the pack's checklist."""

from pathlib import PurePosixPath

from django.conf import settings
from django.db import models
from django.db.models import Q


def _not_negative(field: str, name: str) -> models.CheckConstraint:
    return models.CheckConstraint(
        condition=Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__gte": 0}), name=name
    )


class Inspection(models.Model):
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="inspections"
    )
    code = models.CharField(max_length=40)
    date = models.DateField(db_index=True)
    inspector = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    notes = models.TextField(blank=True)
    # Recorded offline in the field app (fogkeeper/inspections/offline.py): the id its browser
    # made, so that a sync repeated or interrupted stores it once; the operator's signature.
    client_id = models.UUIDField(
        null=True, blank=True, unique=True, help_text="the field app's id for it (offline)"
    )
    signature = models.ImageField(upload_to="inspections/signatures/%Y/%m/", blank=True)
    signed_by = models.CharField(
        max_length=200, blank=True, help_text="who signed for the establishment"
    )
    # The receipt emailed to the operator (fogkeeper/inspections/receipts.py), once.
    receipt_sent_to = models.EmailField(blank=True)
    receipt_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-date"]
        constraints = [
            models.UniqueConstraint(
                fields=["establishment", "code"], name="inspection_code_unique_per_fse"
            )
        ]
        # an establishment's last inspection (the field list)
        indexes = [models.Index(fields=["establishment", "date"], name="inspection_fse_date")]

    def __str__(self) -> str:
        return f"inspection {self.code} on {self.date}"


class Measurement(models.Model):
    inspection = models.ForeignKey(
        Inspection, on_delete=models.CASCADE, related_name="measurements"
    )
    device = models.ForeignKey(
        "registry.GreaseControlDevice", on_delete=models.PROTECT, related_name="measurements"
    )
    fog_inches = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)
    solids_inches = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)
    final_chamber_floating_oil = models.BooleanField(null=True, blank=True)
    sludge_to_outlet_inches = models.DecimalField(
        max_digits=6, decimal_places=2, null=True, blank=True
    )

    class Meta:
        constraints = [
            _not_negative("fog_inches", "measurement_fog_not_negative"),
            _not_negative("solids_inches", "measurement_solids_not_negative"),
            _not_negative("sludge_to_outlet_inches", "measurement_sludge_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.device.code} at {self.inspection}"


class ChecklistAnswer(models.Model):
    inspection = models.ForeignKey(Inspection, on_delete=models.CASCADE, related_name="answers")
    item = models.CharField(max_length=80, help_text="a checklist item of the agency's pack")
    device = models.ForeignKey(
        "registry.GreaseControlDevice",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="answers",
    )
    compliant = models.BooleanField()
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["inspection", "item"]

    def __str__(self) -> str:
        return f"{self.item}: {'compliant' if self.compliant else 'NOT compliant'}"


def thumbnail_path(photo: "InspectionPhoto", filename: str) -> str:
    """The thumbnail is stored next to its photo: inspections/2025/06/trap.thumb.jpg."""
    return str(PurePosixPath(photo.image.name or "").with_suffix("")) + ".thumb.jpg"


class InspectionPhoto(models.Model):
    """A photo taken during an inspection (in the field, from the phone's camera), and its
    thumbnail, made once after it is stored (photos.py); blank until then."""

    inspection = models.ForeignKey(Inspection, on_delete=models.PROTECT, related_name="photos")
    image = models.ImageField(upload_to="inspections/%Y/%m/")
    caption = models.CharField(max_length=200, blank=True)
    thumbnail = models.ImageField(upload_to=thumbnail_path, blank=True, editable=False)

    class Meta:
        ordering = ["inspection", "pk"]

    def __str__(self) -> str:
        return f"photo {self.pk} of {self.inspection}"


class Sample(models.Model):
    """A sample of the discharge analysed for one parameter (13.30.080(C); 10.02.090)."""

    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="samples"
    )
    device = models.ForeignKey(
        "registry.GreaseControlDevice",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="samples",
        help_text="the device sampled; blank: the establishment's discharge",
    )
    code = models.CharField(max_length=40)
    date = models.DateField()
    parameter = models.CharField(max_length=60, help_text="e.g. oil_and_grease")
    value = models.DecimalField(max_digits=12, decimal_places=3)
    unit = models.CharField(max_length=20, help_text="e.g. mg/L")
    method = models.CharField(max_length=80, blank=True, help_text="e.g. EPA 1664")
    inspection = models.ForeignKey(
        Inspection, null=True, blank=True, on_delete=models.PROTECT, related_name="samples"
    )

    class Meta:
        ordering = ["-date", "code"]
        constraints = [
            models.UniqueConstraint(
                fields=["establishment", "code"], name="sample_code_unique_per_fse"
            ),
            models.CheckConstraint(condition=Q(value__gte=0), name="sample_value_not_negative"),
        ]

    def __str__(self) -> str:
        return f"sample {self.code}: {self.parameter} {self.value} {self.unit} on {self.date}"

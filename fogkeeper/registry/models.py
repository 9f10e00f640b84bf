"""Who and what a FOG program knows: agencies, food service establishments (FSEs), their
operators, parcels and owners, sewer laterals and segments, grease control devices, haulers."""

from __future__ import annotations

import re
from datetime import date, timedelta

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q

INTERCEPTOR_EXCEPTIONS = [("space", "Insufficient space"), ("slope", "Insufficient slope")]
CHANGE_KINDS = [("remodel", "Remodel"), ("expansion", "Expansion"), ("process", "Process change")]

_NON_WORD = re.compile(r"[^a-z0-9 ]+")
_SPACES = re.compile(r"\s+")
_ABBREVIATIONS = {
    "street": "st",
    "avenue": "ave",
    "boulevard": "blvd",
    "road": "rd",
    "drive": "dr",
    "lane": "ln",
    "court": "ct",
    "place": "pl",
    "highway": "hwy",
    "parkway": "pkwy",
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    "suite": "ste",
    "calle": "calle",
}


def normalise_address(text: str) -> str:
    """A street address reduced for matching: lower case, no punctuation, usual abbreviations,
    no unit or suite ('123 N. Main Street, Ste 4' -> '123 n main st')."""
    text = _NON_WORD.sub(" ", (text or "").lower())
    words = [_ABBREVIATIONS.get(w, w) for w in _SPACES.split(text.strip()) if w]
    for marker in ("ste", "unit", "apt", "#", "suite", "bldg", "spc"):
        if marker in words:
            words = words[: words.index(marker)]
    return " ".join(words)


def pack_today(pack_id: str) -> date:
    """Today where the agencies of pack `pack_id` are: in its calendar's time zone (the
    America/New_York of an Ohio ordinance, not the server's)."""
    from django.utils import timezone

    from fogkeeper.rules.packs import default_registry

    return timezone.now().astimezone(default_registry().get(pack_id).calendar.tz).date()


def _validate_pack(value: str) -> None:
    from fogkeeper.rules.packs import default_registry

    if not default_registry().has(value):
        known = ", ".join(default_registry().ids())
        raise ValidationError(f"unknown jurisdiction pack {value!r} (known: {known})")


def _check_vocab(field: str, value: str, known: dict, what: str, pack) -> None:
    """`value` must be one of the pack's words for `what` (its device kinds, categories)."""
    if value not in known:
        allowed = ", ".join(known)
        raise ValidationError(
            {field: f"{value!r} is not a {what} of {pack.name} (allowed: {allowed})."}
        )


def city_line(city: str, state: str, zip_code: str) -> str:
    """The last line of a postal address from its parts: "Aurora, OH 44202"."""
    place = f"{city}, {state}" if city and state else city or state
    return " ".join(part for part in (place, zip_code) if part)


def _check_area(south, west, north, east) -> None:
    errors = {}
    for name, value, largest in (
        ("area_south", south, 90),
        ("area_north", north, 90),
        ("area_west", west, 180),
        ("area_east", east, 180),
    ):
        if abs(value) > largest:
            errors[name] = f"{value} is not between -{largest} and {largest}."
    if not errors and south >= north:
        errors["area_north"] = f"The north edge ({north}) must be north of the south ({south})."
    if not errors and west >= east:
        errors["area_east"] = (
            f"The east edge ({east}) must be east of the west ({west}); in the United States "
            "longitudes are negative, e.g. west -93.71, east -93.50."
        )
    if errors:
        raise ValidationError(errors)


def _degrees(help_text: str):
    return models.DecimalField(
        max_digits=9, decimal_places=6, null=True, blank=True, help_text=help_text
    )


class Agency(models.Model):
    """A sewer agency running a FOG program under one ordinance (one jurisdiction pack)."""

    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=200)
    pack = models.CharField(
        max_length=60, validators=[_validate_pack], help_text="jurisdiction pack id"
    )
    letterhead = models.TextField(
        blank=True,
        help_text="address block printed on letters under the agency's name and department "
        "(the office, street, and city, state and ZIP)",
    )
    # Where the agency's establishments lie: a point outside is told at onboarding (blank:
    # judged from the spread of its establishments).
    area_south = _degrees("the southmost latitude of the agency's area")
    area_north = _degrees("the northmost latitude of the agency's area")
    area_west = _degrees("the westmost longitude of the agency's area (negative in the US)")
    area_east = _degrees("the eastmost longitude of the agency's area (negative in the US)")
    history_starts = models.DateField(
        null=True,
        blank=True,
        help_text="the day the agency's pump-out records start: a device in place before it "
        "with no pump-out on record is not counted overdue until the grace period ends",
    )
    history_grace_days = models.PositiveIntegerField(
        default=60,
        db_default=60,
        validators=[MinValueValidator(1), MaxValueValidator(730)],
        help_text="days after the history starts within which a device without a record is "
        "not counted overdue",
    )

    class Meta:
        verbose_name_plural = "agencies"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_pack(self):
        from fogkeeper.rules.packs import default_registry

        return default_registry().get(self.pack)

    def today(self) -> date:
        """Today in the agency's time zone (its pack's calendar)."""
        return pack_today(self.pack)

    @property
    def area(self) -> tuple | None:
        """(south, west, north, east) as the agency set them, or None."""
        box = (self.area_south, self.area_west, self.area_north, self.area_east)
        return None if None in box else box

    @property
    def history_grace_ends(self) -> date | None:
        """The day a device with no pump-out on record from before the history starts is
        counted overdue again, when it is due."""
        if self.history_starts is None:
            return None
        return self.history_starts + timedelta(days=self.history_grace_days)

    def clean(self) -> None:
        super().clean()
        box = (self.area_south, self.area_west, self.area_north, self.area_east)
        if any(v is not None for v in box) and None in box:
            raise ValidationError("Give the area's four edges, or none.")
        if None not in box:
            _check_area(*box)


class PropertyOwner(models.Model):
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="property_owners")
    name = models.CharField(max_length=200)
    mailing_address = models.TextField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    email = models.EmailField(blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Parcel(models.Model):
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="parcels")
    apn = models.CharField("assessor's parcel number", max_length=40)
    address = models.CharField(max_length=200)
    owner = models.ForeignKey(
        PropertyOwner, null=True, blank=True, on_delete=models.SET_NULL, related_name="parcels"
    )
    multi_tenant = models.BooleanField(default=False)

    class Meta:
        ordering = ["apn"]
        constraints = [
            models.UniqueConstraint(fields=["agency", "apn"], name="parcel_apn_unique_per_agency")
        ]

    def __str__(self) -> str:
        return f"{self.apn} {self.address}"


class SewerSegment(models.Model):
    """A reach of public sewer main, as the agency's sewer system management plan names it."""

    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="sewer_segments")
    code = models.CharField(max_length=40)
    description = models.CharField(max_length=200, blank=True)
    prone_to_blockage = models.BooleanField(default=False)
    cleaning_frequency_days = models.PositiveIntegerField(null=True, blank=True)
    path = models.JSONField(
        null=True, blank=True, help_text="the reach as a list of [latitude, longitude] points"
    )

    class Meta:
        ordering = ["code"]
        constraints = [
            models.UniqueConstraint(
                fields=["agency", "code"], name="segment_code_unique_per_agency"
            )
        ]

    def __str__(self) -> str:
        return self.code


class Operator(models.Model):
    """A business that operates FSEs (the permittee)."""

    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="operators")
    name = models.CharField(max_length=200)
    mailing_address = models.TextField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    email = models.EmailField(blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class FoodServiceEstablishment(models.Model):
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="establishments")
    code = models.CharField(max_length=40, help_text="the agency's id for the FSE")
    name = models.CharField(max_length=200)
    address = models.CharField(max_length=200)
    city = models.CharField(max_length=100, blank=True)
    state = models.CharField(
        max_length=2,
        blank=True,
        default="",
        db_default="",  # a row written without it: blank
        help_text="the state's two-letter postal code: CA, OH",
    )
    zip_code = models.CharField(max_length=10, blank=True)
    normalised_address = models.CharField(max_length=200, db_index=True, editable=False)
    parcel = models.ForeignKey(
        Parcel, null=True, blank=True, on_delete=models.SET_NULL, related_name="establishments"
    )
    category = models.CharField(
        max_length=40, blank=True, help_text="one of the pack's categories (its default if blank)"
    )
    on_public_sewer = models.BooleanField(default=True)
    opened_on = models.DateField()
    closed_on = models.DateField(null=True, blank=True)
    remodeled_on = models.DateField(
        null=True, blank=True, help_text="last remodel or change of use"
    )
    food_grinder = models.BooleanField(default=False)
    food_grinder_installed_on = models.DateField(null=True, blank=True)
    variance_granted = models.BooleanField(default=False, help_text="SC 13.30.060(G)")
    interceptor_exception = models.CharField(
        max_length=10, choices=INTERCEPTOR_EXCEPTIONS, blank=True, help_text="Town 10.02.130(F)(6)"
    )
    interceptor_plans_submitted_on = models.DateField(null=True, blank=True)
    latitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    longitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)

    class Meta:
        verbose_name = "food service establishment"
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["agency", "code"], name="fse_code_unique_per_agency"),
            models.CheckConstraint(
                condition=Q(closed_on__isnull=True) | Q(closed_on__gte=F("opened_on")),
                name="fse_closed_after_opened",
            ),
        ]
        # the establishments list, sorted by name a page at a time
        indexes = [models.Index(fields=["agency", "name", "code"], name="fse_agency_name")]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def save(self, *args, **kwargs):
        self.normalised_address = normalise_address(self.address)
        if not self.category:
            self.category = self.agency.get_pack().default_category
        super().save(*args, **kwargs)

    def city_line(self) -> str:
        """The last line of its postal address: "Aurora, OH 44202"."""
        return city_line(self.city, self.state, self.zip_code)

    def current_tenure(self):
        return self.tenures.filter(until__isnull=True).select_related("operator").first()

    def clean(self) -> None:
        if self.agency_id is None:
            return
        pack = self.agency.get_pack()
        self.category = self.category or pack.default_category
        _check_vocab("category", self.category, pack.categories, "establishment category", pack)

    def category_title(self) -> str:
        return self.agency.get_pack().category_title(self.category)


class OperatorTenure(models.Model):
    """Who operated an FSE, from when to when: a change of operator is a new tenure."""

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="tenures"
    )
    operator = models.ForeignKey(Operator, on_delete=models.PROTECT, related_name="tenures")
    since = models.DateField()
    until = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["establishment", "-since"]
        constraints = [
            models.UniqueConstraint(
                fields=["establishment"],
                condition=Q(until__isnull=True),
                name="one_current_operator_per_fse",
            ),
            models.CheckConstraint(
                condition=Q(until__isnull=True) | Q(until__gte=F("since")),
                name="tenure_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.operator} at {self.establishment} since {self.since}"


class OperationChange(models.Model):
    """A remodel, expansion or process change, and when the agency was told (Town 10.02.150)."""

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="changes"
    )
    date = models.DateField(help_text="planned or actual date of the change")
    kind = models.CharField(max_length=20, choices=CHANGE_KINDS)
    notified_on = models.DateField(null=True, blank=True)
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["establishment", "date"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} on {self.date}"


class Lateral(models.Model):
    """The private sewer lateral from an FSE (or its parcel) to a public sewer segment."""

    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="laterals"
    )
    segment = models.ForeignKey(
        SewerSegment, null=True, blank=True, on_delete=models.SET_NULL, related_name="laterals"
    )
    description = models.CharField(max_length=200, blank=True)
    last_inspected_on = models.DateField(null=True, blank=True)

    def __str__(self) -> str:
        return f"lateral of {self.establishment} to {self.segment or 'unknown segment'}"


class Hauler(models.Model):
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="haulers")
    code = models.CharField(max_length=40)
    name = models.CharField(max_length=200)
    licence_number = models.CharField(max_length=60, blank=True)
    licence_expires_on = models.DateField(null=True, blank=True)
    licensed = models.BooleanField(default=True)
    # the certification a pack may require beside the licence (hauler.certification)
    certification_number = models.CharField(max_length=60, blank=True)
    certification_expires_on = models.DateField(null=True, blank=True)
    certified = models.BooleanField(default=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["agency", "code"], name="hauler_code_unique_per_agency")
        ]

    def __str__(self) -> str:
        return self.name


class ServiceContract(models.Model):
    """An establishment's contract with a hauler to pump out its devices: while it runs, the
    establishment is the hauler's customer, which is what a hauler reaches (ACCESS.md)."""

    hauler = models.ForeignKey(Hauler, on_delete=models.PROTECT, related_name="contracts")
    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="contracts"
    )
    since = models.DateField()
    until = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["establishment", "-since"]
        constraints = [
            models.UniqueConstraint(
                fields=["hauler", "establishment"],
                condition=Q(until__isnull=True),
                name="one_open_contract_per_hauler_and_fse",
            ),
            models.CheckConstraint(
                condition=Q(until__isnull=True) | Q(until__gte=F("since")),
                name="contract_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hauler} serves {self.establishment} since {self.since}"

    def clean(self) -> None:
        if self.hauler.agency_id != self.establishment.agency_id:
            raise ValidationError("the hauler is not approved by the establishment's agency")


class GreaseControlDevice(models.Model):
    establishment = models.ForeignKey(
        FoodServiceEstablishment, on_delete=models.PROTECT, related_name="devices"
    )
    code = models.CharField(max_length=40, help_text="e.g. GI-1")
    kind = models.CharField(max_length=40, help_text="one of the pack's device kinds")
    installed_on = models.DateField()
    removed_on = models.DateField(null=True, blank=True)
    location = models.CharField(max_length=200, blank=True)
    capacity_gallons = models.DecimalField(max_digits=9, decimal_places=1, null=True, blank=True)
    design_depth_inches = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)
    compartments = models.PositiveSmallIntegerField(null=True, blank=True)
    manhole_diameter_inches = models.DecimalField(
        max_digits=6, decimal_places=2, null=True, blank=True
    )
    service_frequency_days = models.PositiveIntegerField(
        null=True, blank=True, help_text="overrides the permit's frequency"
    )
    sizing_inputs = models.JSONField(
        default=dict, blank=True, help_text="the inputs of the pack's sizing formula, by name"
    )

    class Meta:
        verbose_name = "grease control device"
        ordering = ["establishment", "code"]
        constraints = [
            models.UniqueConstraint(
                fields=["establishment", "code"], name="device_code_unique_per_fse"
            ),
            models.CheckConstraint(
                condition=Q(capacity_gallons__isnull=True) | Q(capacity_gallons__gte=0),
                name="device_capacity_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(design_depth_inches__isnull=True) | Q(design_depth_inches__gt=0),
                name="device_depth_positive",
            ),
            models.CheckConstraint(
                condition=Q(manhole_diameter_inches__isnull=True)
                | Q(manhole_diameter_inches__gt=0),
                name="device_manhole_positive",
            ),
            models.CheckConstraint(
                condition=Q(service_frequency_days__isnull=True) | Q(service_frequency_days__gt=0),
                name="device_frequency_positive",
            ),
            models.CheckConstraint(
                condition=Q(removed_on__isnull=True) | Q(removed_on__gte=F("installed_on")),
                name="device_removed_after_installed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} ({self.kind_title()}) at {self.establishment.name}"

    def clean(self) -> None:
        if self.establishment_id is not None:
            pack = self.establishment.agency.get_pack()
            _check_vocab("kind", self.kind, pack.device_kinds, "device kind", pack)

    def kind_title(self) -> str:
        """The pack's title of the device's kind ("Grease interceptor")."""
        return self.establishment.agency.get_pack().kind_title(self.kind)


DESIGN_FIELDS = [
    ("capacity_gallons", "capacity (gallons)"),
    ("design_depth_inches", "design depth (inches)"),
    ("compartments", "compartments"),
    ("manhole_diameter_inches", "manhole diameter (inches)"),
]


class ApprovedException(models.Model):
    """A design field of a device the agency approved below the pack's limit ("unless
    otherwise approved"); allowed only where the pack says so (RULES 11.11)."""

    device = models.ForeignKey(
        GreaseControlDevice, on_delete=models.PROTECT, related_name="approved_exceptions"
    )
    field = models.CharField(max_length=40, choices=DESIGN_FIELDS)
    approved_on = models.DateField()
    approved_by = models.CharField(max_length=200, blank=True)
    reference = models.CharField(max_length=80, blank=True, help_text="the approval's number")

    class Meta:
        ordering = ["device", "field", "approved_on"]
        constraints = [
            models.UniqueConstraint(
                fields=["device", "field"], name="approved_exception_once_per_field"
            )
        ]

    def __str__(self) -> str:
        return f"{self.device.code}: {self.field} approved on {self.approved_on}"

    def clean(self) -> None:
        if self.device_id is None:
            return
        pack = self.device.establishment.agency.get_pack()
        on = max(self.approved_on or pack.effective, pack.effective)
        params = pack.params_on(on)
        if not params.get("gcd.exceptions_allowed", False):
            cited = (
                params.reference("gcd.exceptions_allowed")
                if "gcd.exceptions_allowed" in pack.parameters
                else pack.id
            )
            raise ValidationError(
                {"field": f"{cited}: {pack.name} allows no exceptions to its design limits."}
            )


class IntervalApproval(models.Model):
    """A longer pump-out interval the ordinance allows "unless approved", approved for a
    device by a named official under a letter or resolution number, in force from the day
    approved through its last day, if it has one. The engine uses it for a pump-out falling
    due in that time, and the overdue finding names it."""

    device = models.ForeignKey(
        GreaseControlDevice, on_delete=models.PROTECT, related_name="interval_approvals"
    )
    days = models.PositiveIntegerField(help_text="the interval approved, in days")
    approved_on = models.DateField()
    approved_by = models.CharField(max_length=200, help_text="the official who approved it")
    reference = models.CharField(max_length=80, help_text="the letter or resolution number")
    ends_on = models.DateField(null=True, blank=True, help_text="its last day, if it ends")

    class Meta:
        ordering = ["device", "approved_on", "id"]

    def __str__(self) -> str:
        return f"{self.device.code}: every {self.days} days approved on {self.approved_on}"

    def clean(self) -> None:
        errors = {}
        if not (self.approved_by or "").strip():
            errors["approved_by"] = "Name the official who approved the interval."
        if not (self.reference or "").strip():
            errors["reference"] = "Give the approval's letter or resolution number."
        if self.days is not None and self.days < 1:
            errors["days"] = "The interval approved is at least one day."
        if self.ends_on and self.approved_on and self.ends_on < self.approved_on:
            errors["ends_on"] = (
                f"The approval cannot end on {self.ends_on}, before it was given on "
                f"{self.approved_on}."
            )
        if errors:
            raise ValidationError(errors)

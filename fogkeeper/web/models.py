"""Who acts for which agency, and in what role (ACCESS.md).

Staff roles belong to the agency; an operator, hauler or owner membership also names the
agency's record of that business or person, which bounds what the membership reaches."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

STAFF_ROLES = {"manager", "inspector", "clerk", "auditor"}
ROLES = [
    ("manager", "Program manager"),
    ("inspector", "Inspector"),
    ("clerk", "Clerk or hearing officer"),
    ("auditor", "Auditor (read only)"),
    ("operator", "FSE operator"),
    ("hauler", "Grease hauler"),
    ("owner", "Property owner"),
]
# The record an outside role's membership names; staff memberships name none.
LINKS = {"operator": "operator", "hauler": "hauler", "owner": "owner"}


def _links_match_role() -> Q:
    staff = Q(role__in=sorted(STAFF_ROLES)) & Q(
        operator__isnull=True, hauler__isnull=True, owner__isnull=True
    )
    outside = [
        Q(role=role, **{f"{link}__isnull": False})
        & Q(**{f"{other}__isnull": True for other in LINKS.values() if other != link})
        for role, link in LINKS.items()
    ]
    condition = staff
    for q in outside:
        condition |= q
    return condition


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    agency = models.ForeignKey(
        "registry.Agency", on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=20, choices=ROLES)
    operator = models.ForeignKey(
        "registry.Operator",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="memberships",
        help_text="for an operator: the business whose establishments it reaches",
    )
    hauler = models.ForeignKey(
        "registry.Hauler",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="memberships",
        help_text="for a hauler: the company, as approved by this agency",
    )
    owner = models.ForeignKey(
        "registry.PropertyOwner",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="memberships",
        help_text="for a property owner: whose parcels' establishments it reaches",
    )
    # When the person last chose to act for this agency: a person of several agencies signs
    # in to the one they used last, not to the alphabetically first.
    last_chosen = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["agency__name"]
        constraints = [
            models.UniqueConstraint(fields=["user", "agency"], name="membership_unique"),
            models.CheckConstraint(
                condition=Q(role__in=[r for r, _ in ROLES]), name="membership_role_known"
            ),
            models.CheckConstraint(
                condition=_links_match_role(), name="membership_links_match_role"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) at {self.agency}"

    @property
    def is_staff_role(self) -> bool:
        return self.role in STAFF_ROLES

    def clean(self) -> None:
        link = LINKS.get(self.role)
        for name in LINKS.values():
            value = getattr(self, f"{name}_id")
            if name == link and value is None:
                raise ValidationError({name: f"an {self.role} membership names its {name}"})
            if name != link and value is not None:
                raise ValidationError({name: f"a {self.role} membership names no {name}"})
        record = getattr(self, link) if link else None
        if link and record is not None and record.agency_id != self.agency_id:
            raise ValidationError({link: f"this {link} is not a record of {self.agency}"})

"""Who works for which agency, and in what role (ACCESS.md)."""

from django.conf import settings
from django.db import models

ROLES = [
    ("manager", "Program manager"),
    ("inspector", "Inspector"),
    ("clerk", "Clerk"),
    ("auditor", "Auditor (read only)"),
]


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    agency = models.ForeignKey(
        "registry.Agency", on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=20, choices=ROLES)

    class Meta:
        ordering = ["agency__name"]
        constraints = [
            models.UniqueConstraint(fields=["user", "agency"], name="membership_unique"),
            models.CheckConstraint(
                condition=models.Q(role__in=[r for r, _ in ROLES]), name="membership_role_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) at {self.agency}"

"""The world the access matrix runs in: the demo program of both jurisdictions (agency A is
San Clemente, B the Town) and, for each agency, one login per role of ACCESS.md holding that
role in that agency only. An outside role's record is the one the demo's own login uses."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from io import StringIO

from django.contrib.auth.models import User
from django.core.management import call_command

from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from fogkeeper.web.common import policy
from fogkeeper.web.models import Membership

AS_OF = date(2026, 11, 30)
PASSWORD = "correct horse battery"
ROLES = ("manager", "inspector", "clerk", "auditor", "operator", "hauler", "owner")


@dataclass
class Side:
    """One agency of the world: its logins by role and the establishments each reaches."""

    agency: Agency
    users: dict[str, User] = field(default_factory=dict)
    reach: dict[str, set[str]] = field(default_factory=dict)

    picked: dict[tuple[str, bool], FoodServiceEstablishment | None] = field(default_factory=dict)

    def mine(self, role: str) -> FoodServiceEstablishment:
        """An establishment `role` reaches (for staff: any), with pump-outs on record; the
        same one for every row of the matrix."""
        if (role, True) not in self.picked:
            found = self._serviced().filter(code__in=self.reach[role]).first()
            self.picked[(role, True)] = found
        return self.picked[(role, True)]

    def not_mine(self, role: str) -> FoodServiceEstablishment | None:
        """An establishment of the agency that `role` does not reach, with pump-outs."""
        if (role, False) not in self.picked:
            found = self._serviced().exclude(code__in=self.reach[role]).first()
            self.picked[(role, False)] = found
        return self.picked[(role, False)]

    def _serviced(self):
        return (
            FoodServiceEstablishment.objects.filter(agency=self.agency)
            .filter(devices__services__isnull=False)
            .distinct()
            .order_by("code")
        )


def build_world() -> dict[str, Side]:
    call_command("demo", "--as-of", AS_OF.isoformat(), stdout=StringIO())
    sides = {}
    for key, code in (("A", "san-clemente"), ("B", "town")):
        agency = Agency.objects.get(code=code)
        side = Side(agency)
        for role in ROLES:
            demo = Membership.objects.get(user__username=role, agency=agency)
            user = User.objects.create_user(f"{role}-{key.lower()}", password=PASSWORD)
            Membership.objects.create(
                user=user,
                agency=agency,
                role=role,
                operator=demo.operator,
                hauler=demo.hauler,
                owner=demo.owner,
            )
            side.users[role] = user
            side.reach[role] = set(
                policy.establishments(user, agency, on=AS_OF).values_list("code", flat=True)
            )
        sides[key] = side
    return sides

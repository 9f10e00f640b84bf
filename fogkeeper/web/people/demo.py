"""The demo's people: one login for each role of ACCESS.md, and the haulers' contracts that
make establishments their customers. All share the staff login's password."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, Min, OuterRef

from fogkeeper.demo.builder import STAFF_PASSWORD
from fogkeeper.enforcement.models import EnforcementCase
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import (
    Agency,
    FoodServiceEstablishment,
    Hauler,
    Operator,
    PropertyOwner,
    ServiceContract,
)

from ..models import ROLES, STAFF_ROLES, Membership

# The staff roles in the order ACCESS.md lists them.
STAFF = [role for role, _ in ROLES if role in STAFF_ROLES]


def load_contracts(agency: Agency) -> int:
    """Each establishment's contract with the hauler that pumped it out last, since that
    hauler's first pump-out there."""
    latest: dict[int, int] = {}
    for fse_id, hauler_id in (
        Service.objects.filter(device__establishment__agency=agency, hauler__isnull=False)
        .order_by("date", "pk")
        .values_list("device__establishment_id", "hauler_id")
    ):
        latest[fse_id] = hauler_id
    first = {
        (row["device__establishment_id"], row["hauler_id"]): row["first"]
        for row in Service.objects.filter(device__establishment__agency=agency)
        .values("device__establishment_id", "hauler_id")
        .annotate(first=Min("date"))
    }
    contracts = [
        ServiceContract(hauler_id=h, establishment_id=f, since=first[(f, h)])
        for f, h in latest.items()
    ]
    ServiceContract.objects.bulk_create(contracts)
    return len(contracts)


def _user(username: str, first: str, last: str):
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        user = User.objects.create_user(
            username, email=f"{username}@fogkeeper.invalid", password=STAFF_PASSWORD
        )
        user.first_name, user.last_name = first, last
        user.save(update_fields=["first_name", "last_name"])
    return user


def load_people(agencies: list[Agency], staff) -> list[tuple[str, str]]:
    """Memberships for the demo: the superuser `staff` manages every agency; `manager`,
    `inspector`, `clerk` and `auditor` hold their role in every agency; `operator`,
    `hauler` and `owner` act for the busiest operator (one with letters to read, when the
    demo has an enforcement case), hauler and owner of each agency.
    Returns (username, what it shows) for the command to print."""
    shown = [("staff", "superuser, manager of every agency")]
    for agency in agencies:
        Membership.objects.get_or_create(user=staff, agency=agency, defaults={"role": "manager"})
        load_contracts(agency)
        for role in STAFF:
            user = _user(role, role.capitalize(), "(demo)")
            Membership.objects.get_or_create(user=user, agency=agency, defaults={"role": role})
        # The operator with letters to read (the demo's enforcement case), else the busiest.
        cased = EnforcementCase.objects.filter(
            establishment__tenures__operator=OuterRef("pk"),
            establishment__tenures__until__isnull=True,
        )
        operator = (
            Operator.objects.filter(agency=agency, tenures__until__isnull=True)
            .annotate(n=Count("tenures"), cased=Exists(cased))
            .order_by("-cased", "-n", "name")
            .first()
        )
        hauler = (
            Hauler.objects.filter(agency=agency, licensed=True)
            .annotate(n=Count("contracts"))
            .order_by("-n", "code")
            .first()
        )
        owner = (
            PropertyOwner.objects.filter(agency=agency)
            .annotate(n=Count("parcels__establishments"))
            .order_by("-n", "name")
            .first()
        )
        for role, record in (("operator", operator), ("hauler", hauler), ("owner", owner)):
            if record is None:
                continue
            user = _user(role, role.capitalize(), "(demo)")
            Membership.objects.get_or_create(
                user=user, agency=agency, defaults={"role": role, role: record}
            )
            n = _reach(role, record)
            shown.append((role, f"{role} {record} at {agency.code} ({n} establishments)"))
    shown[1:1] = [(r, f"{r} of every agency") for r in STAFF]
    return shown


def _reach(role: str, record) -> int:
    fses = FoodServiceEstablishment.objects
    if role == "operator":
        return fses.filter(tenures__operator=record, tenures__until__isnull=True).count()
    if role == "hauler":
        return fses.filter(contracts__hauler=record, contracts__until__isnull=True).count()
    return fses.filter(parcel__owner=record).count()


def people_for_demo(*, agencies: list[Agency], staff, **_) -> None:
    """Answers fogkeeper.upcalls' demo_people: the demo's people, in the demo's transaction."""
    load_people(agencies, staff)

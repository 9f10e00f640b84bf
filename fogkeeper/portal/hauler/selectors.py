"""What the hauler portal reads: its customers (policy.establishments) with their devices,
service frequency and schedule, and the hauler's own services, never another hauler's nor an
establishment's findings or inspections (ACCESS.md)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.db.models import Max, OuterRef, Q, QuerySet, Subquery

from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.maintenance.models import HAULER_SOURCES, Service, ServiceDispute
from fogkeeper.permits.models import Permit
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, GreaseControlDevice, Hauler
from fogkeeper.rules.calendar import Duration

PUMP_OUT = "gcd.service"  # the schedule's obligation of a device's next pump-out


@dataclass
class DeviceRow:
    device: GreaseControlDevice
    frequency: str | None  # "30 days", "3 months": the device's, the permit's or the pack's
    next_due: date | None


@dataclass
class CustomerRow:
    establishment: FoodServiceEstablishment
    devices: list[DeviceRow]
    last_service_on: date | None  # the hauler's own last pump-out there

    @property
    def next_due(self) -> date | None:
        return min((d.next_due for d in self.devices if d.next_due), default=None)


def customer_search(establishments: QuerySet, query: str = "") -> QuerySet:
    """The customers whose name, address, city or code holds `query`, by name."""
    query = query.strip()
    if query:
        establishments = establishments.filter(
            Q(name__icontains=query)
            | Q(address__icontains=query)
            | Q(city__icontains=query)
            | Q(code__icontains=query)
        )
    return establishments.order_by("name", "code")


def customer_rows(
    *,
    establishments: Iterable[FoodServiceEstablishment],
    hauler: Hauler,
    agency: Agency,
    today: date,
) -> list[CustomerRow]:
    """Each establishment with its devices in place, their frequency and next due pump-out
    (from the last sweep's schedule), and the hauler's last pump-out there."""
    fses = list(establishments)
    ids = [f.pk for f in fses]
    devices: dict[int, list[GreaseControlDevice]] = {pk: [] for pk in ids}
    for device in (
        GreaseControlDevice.objects.select_related("establishment__agency")
        .filter(establishment_id__in=ids, removed_on__isnull=True)
        .order_by("code")
    ):
        devices[device.establishment_id].append(device)
    permits = {
        p.establishment_id: p
        for p in Permit.objects.filter(establishment_id__in=ids, status="active").order_by(
            "issued_on", "pk"
        )
    }  # the latest issued wins
    schedules = dict(
        ComplianceStatus.objects.filter(establishment_id__in=ids).values_list(
            "establishment_id", "schedule"
        )
    )
    last = dict(
        Service.objects.filter(hauler=hauler, device__establishment_id__in=ids)
        .values("device__establishment_id")
        .annotate(last=Max("date"))
        .values_list("device__establishment_id", "last")
    )
    defaults = _default_frequencies(agency, today)
    rows = []
    for fse in fses:
        due = _pump_outs_due(schedules.get(fse.pk) or [])
        permit = permits.get(fse.pk)
        rows.append(
            CustomerRow(
                establishment=fse,
                devices=[
                    DeviceRow(d, _frequency(d, permit, defaults), due.get(d.code))
                    for d in devices[fse.pk]
                ],
                last_service_on=last.get(fse.pk),
            )
        )
    return rows


def _default_frequencies(agency: Agency, today: date) -> dict[str, str]:
    """The pack's default frequency of each of its device kinds in force `today`, as text."""
    pack = agency.get_pack()
    defaults = {kind: pack.default_frequency(kind, today) for kind in pack.device_kinds}
    return {kind: str(d) for kind, d in defaults.items() if d is not None}


def _frequency(device: GreaseControlDevice, permit: Permit | None, defaults: dict) -> str | None:
    """The device's own frequency, else its permit's, else the ordinance's for its kind (the
    order rules.context.Context.frequency follows)."""
    days = device.service_frequency_days
    if days is None and permit is not None:
        days = permit.service_frequency_days
    return str(Duration(days, "days")) if days is not None else defaults.get(device.kind)


def _pump_outs_due(schedule: list[dict]) -> dict[str, date]:
    return {
        item["subject"]: date.fromisoformat(item["due"])
        for item in schedule
        if item.get("obligation") == PUMP_OUT
    }


def own_services(*, hauler: Hauler, establishments: QuerySet) -> QuerySet:
    """The hauler's own pump-outs at the establishments it reaches, newest first, each with
    `disputed_on`: the day staff disputed it, when a dispute is open."""
    open_dispute = ServiceDispute.objects.filter(
        service=OuterRef("pk"), withdrawn_on__isnull=True
    ).values("raised_on")[:1]
    return (
        Service.objects.filter(hauler=hauler, device__establishment__in=establishments)
        .select_related("device__establishment")
        .annotate(disputed_on=Subquery(open_dispute))
        .order_by("-date", "-pk")
    )


def submissions(*, hauler: Hauler, establishments: QuerySet, query: str = "") -> QuerySet:
    """What the hauler submitted itself (form, file or API), searchable by manifest number or
    establishment."""
    services = own_services(hauler=hauler, establishments=establishments).filter(
        source__in=HAULER_SOURCES
    )
    query = query.strip()
    if query:
        services = services.filter(
            Q(manifest_number__icontains=query)
            | Q(device__establishment__name__icontains=query)
            | Q(device__establishment__code__icontains=query)
        )
    return services

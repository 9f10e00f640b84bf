"""Reads of the registry."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db import models

from fogkeeper.rules.calendar import Duration
from fogkeeper.rules.errors import ParameterNotInForce

from .models import (
    Agency,
    FoodServiceEstablishment,
    Lateral,
    Operator,
    OperatorTenure,
    Parcel,
    PropertyOwner,
    SewerSegment,
)

_TOWARDS_AGENCY = (
    "agency",
    "establishment",
    "device",
    "inspection",
    "training",
    "service",
    "requirement",
)


def record_agency(obj: models.Model) -> Agency | None:
    """The agency a record belongs to, through its establishment, device, inspection or
    training when it has no agency of its own."""
    for _ in range(len(_TOWARDS_AGENCY)):
        if isinstance(obj, Agency):
            return obj
        fields = {f.name for f in obj._meta.concrete_fields}
        name = next(
            (n for n in _TOWARDS_AGENCY if n in fields and getattr(obj, f"{n}_id") is not None),
            None,
        )
        if name is None:
            return None
        obj = getattr(obj, name)
    return obj if isinstance(obj, Agency) else None


def establishment_current_operator(*, establishment: FoodServiceEstablishment) -> Operator | None:
    tenure = establishment.current_tenure()
    return tenure.operator if tenure else None


def establishment_list(*, agency: Agency, open_only: bool = False):
    qs = FoodServiceEstablishment.objects.filter(agency=agency)
    if open_only:
        qs = qs.filter(closed_on__isnull=True)
    return qs.order_by("name")


# -- the registry pages -------------------------------------------------------------------

CHANGE_RULE = "permit.change_not_notified"
CHANGE_LEAD = "permit.change_notice_lead"


def search(qs, q: str, *fields: str):
    """`qs` narrowed to the rows where any of `fields` contains `q` (all of them if blank)."""
    q = (q or "").strip()
    if not q:
        return qs
    match = models.Q()
    for name in fields:
        match |= models.Q(**{f"{name}__icontains": q})
    return qs.filter(match)


def operator_list(*, agency: Agency, q: str = ""):
    return search(Operator.objects.filter(agency=agency), q, "name", "email").order_by("name")


def operator_establishments(*, operator: Operator) -> dict[str, list[OperatorTenure]]:
    """The establishments the operator runs now, and the ones it ran before (its tenures)."""
    tenures = list(
        OperatorTenure.objects.filter(operator=operator)
        .select_related("establishment")
        .order_by("-since", "establishment__name")
    )
    return {
        "now": [t for t in tenures if t.until is None],
        "before": [t for t in tenures if t.until is not None],
    }


def owner_list(*, agency: Agency, q: str = ""):
    qs = PropertyOwner.objects.filter(agency=agency).annotate(parcel_count=models.Count("parcels"))
    return search(qs, q, "name", "mailing_address", "email").order_by("name")


def parcel_list(*, agency: Agency, q: str = ""):
    qs = Parcel.objects.filter(agency=agency).select_related("owner")
    return search(qs, q, "apn", "address", "owner__name").order_by("apn")


def segment_list(*, agency: Agency, q: str = ""):
    qs = SewerSegment.objects.filter(agency=agency).annotate(lateral_count=models.Count("laterals"))
    return search(qs, q, "code", "description").order_by("code")


def establishment_laterals(*, establishment: FoodServiceEstablishment) -> list[Lateral]:
    return list(
        Lateral.objects.filter(establishment=establishment).select_related("segment").order_by("pk")
    )


@dataclass(frozen=True)
class ChangeNotice:
    """Whether notice of a change of operation came the pack's lead time ahead of it."""

    change_date: date
    lead: Duration
    due: date
    notified_on: date | None
    citation: str
    title: str

    @property
    def meets(self) -> bool:
        return self.notified_on is not None and self.notified_on <= self.due

    @property
    def days_given(self) -> int | None:
        return None if self.notified_on is None else (self.change_date - self.notified_on).days


def change_notice_lead(*, agency: Agency, on: date) -> tuple[Duration, str] | None:
    """The notice the pack requires before a change of operation on `on` and its reference,
    or None where the ordinance requires none (or not yet on that day)."""
    pack = agency.get_pack()
    if not pack.has(CHANGE_RULE) or CHANGE_LEAD not in pack.parameters:
        return None
    try:
        lead = Duration.parse(pack.param(CHANGE_LEAD, on))
    except ParameterNotInForce:
        return None
    return lead, pack.parameters[CHANGE_LEAD].value_on(on).reference


def change_notice(*, agency: Agency, on: date, notified_on: date | None) -> ChangeNotice | None:
    """How notice given on `notified_on` of a change on `on` stands against the ordinance."""
    found = change_notice_lead(agency=agency, on=on)
    if found is None:
        return None
    lead, reference = found
    pack = agency.get_pack()
    return ChangeNotice(
        change_date=on,
        lead=lead,
        due=pack.calendar.subtract(on, lead),
        notified_on=notified_on,
        citation=f"{pack.name}, {reference}",
        title=pack.rules[CHANGE_RULE].title,
    )

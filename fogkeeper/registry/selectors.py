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

_TOWARDS_AGENCY = ("agency", "establishment", "device", "inspection", "training", "service")


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
NEW_OPERATOR_RULE = "permit.new_operator"


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


def new_operator_rule(*, agency: Agency) -> str:
    """The pack's words for the rule that a permit ends with a change of operator, cited."""
    pack = agency.get_pack()
    rule = pack.rules.get(NEW_OPERATOR_RULE)
    permit = pack.titles.get("permit", "permit")
    if rule is None:
        return f"The {permit} is not transferable to a new operator."
    law = f"{pack.name}, {rule.citation}"
    return f"{rule.title}: the {permit} is not transferable to a new operator ({law})."


def active_permits(*, establishment: FoodServiceEstablishment) -> list:
    from fogkeeper.permits.models import Permit

    return list(Permit.objects.filter(establishment=establishment, status="active"))


def operator_change_warning(*, establishment: FoodServiceEstablishment) -> str:
    """What a change of operator does to the permit, said before the change is recorded."""
    pack = establishment.agency.get_pack()
    permit = pack.titles.get("permit", "permit")
    rule = new_operator_rule(agency=establishment.agency)
    numbers = ", ".join(p.number for p in active_permits(establishment=establishment))
    if not numbers:
        return f"{rule} No {permit} is in force now."
    return f"{rule} Recording a new operator ends {permit} {numbers} on the day it takes over."


def operator_change_ended(*, permits: list, on: date, agency: Agency) -> str:
    """What a recorded change of operator ended, and what comes next."""
    permit = agency.get_pack().titles.get("permit", "permit")
    if not permits:
        return f"No {permit} was in force: the new operator needs one."
    numbers = ", ".join(p.number for p in permits)
    return (
        f"{permit} {numbers} ended on {on:%Y-%m-%d} ({new_operator_rule(agency=agency)}) "
        f"Issue a new {permit} to the new operator."
    )

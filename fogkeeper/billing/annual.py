"""The annual inspection fee (San Clemente 13.30.050(M)): invoiced once a year to each active
establishment from the fee schedule in force, by `manage.py invoice_annual_fees`.

The fee is the schedule's annual item cited to the section that sets the annual inspection
(the pack's `inspection.annual_interval`); an agency whose schedule has none (the Town
inspects yearly but charges no such fee) is refused."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from fogkeeper.reevaluation import held, reevaluate_ids_on_commit
from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from fogkeeper.registry.services import Actor
from fogkeeper.rules.errors import ParameterNotInForce

from .models import FeeItem, Invoice
from .selectors import fee_schedule_in_force
from .services import invoice_issue, lock_invoices

ANNUAL_INSPECTION = "inspection.annual_interval"


class NoAnnualFee(Exception):
    """The agency charges no annual inspection fee on the date, and why."""


def annual_fee_item(agency: Agency, on: date) -> FeeItem:
    """The annual inspection fee in the schedule in force on `on`, else NoAnnualFee."""
    pack = agency.get_pack()
    if ANNUAL_INSPECTION not in pack.parameters:
        raise NoAnnualFee(f"{agency}'s ordinance ({pack.id}) sets no annual inspection fee.")
    try:
        section = pack.parameters[ANNUAL_INSPECTION].value_on(on).reference
    except ParameterNotInForce as e:
        raise NoAnnualFee(f"No annual inspection is in force on {on}: {e}") from e
    schedule = fee_schedule_in_force(agency=agency, on=on)
    if schedule is None:
        raise NoAnnualFee(f"{agency} has no fee schedule in force on {on}.")
    items = [i for i in schedule.items.all() if i.basis == "annual" and i.citation == section]
    if not items:
        raise NoAnnualFee(
            f"{agency} charges no annual inspection fee: its fee schedule from "
            f"{schedule.effective_on} lists no annual fee cited to {section}."
        )
    if len(items) > 1:
        found = ", ".join(i.code for i in items)
        raise NoAnnualFee(
            f"The fee schedule from {schedule.effective_on} lists several annual fees cited to "
            f"{section} ({found}): which is the annual inspection fee?"
        )
    return items[0]


@dataclass
class AnnualRun:
    year: int
    fee: FeeItem
    issued: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)

    def lines(self) -> list[str]:
        fee = f"{self.fee.code} {self.fee.description} (${self.fee.amount}, {self.fee.citation})"
        out = [f"Annual inspection fee {self.year}: {fee}."]
        out.append(f"Issued: {len(self.issued)}" + _listed(self.issued))
        out.append(f"Already invoiced for {self.year}: {len(self.already)}" + _listed(self.already))
        out.append(f"Refused: {len(self.refused)}")
        out += [f"  {code}: {reason}" for code, reason in self.refused]
        if not self.issued:
            out.append("Nothing new was invoiced.")
        return out


def _listed(codes: list[str]) -> str:
    return f" ({', '.join(codes)})" if codes else ""


def active_establishments(agency: Agency, on: date):
    return FoodServiceEstablishment.objects.filter(
        Q(closed_on__isnull=True) | Q(closed_on__gt=on), agency=agency, opened_on__lte=on
    ).order_by("code")


def invoice_annual_fees(*, agency: Agency, year: int, on: date, actor: Actor = None) -> AnnualRun:
    """One fee invoice noticed on `on` for the annual inspection fee of `year` to each active
    establishment not yet invoiced it for that year; each in its own transaction, so one
    refusal loses nothing of the others."""
    fee = fee_for_year(agency, year, on)
    run = AnnualRun(year, fee)
    for fse in active_establishments(agency, on):
        with held():  # those invoiced are evaluated again together, below
            outcome, reason = invoice_one(fse, fee, year, on, actor)
        if outcome == REFUSED:
            run.refused.append((fse.code, reason))
        else:
            getattr(run, outcome).append(fse.code)
    reevaluate_invoiced(agency, run.issued)
    return run


def reevaluate_invoiced(agency: Agency, codes: list[str]) -> None:
    """The establishments of a run of annual fees invoiced, evaluated again on the workers,
    each once (not once per invoice)."""
    ids = FoodServiceEstablishment.objects.filter(agency=agency, code__in=codes)
    reevaluate_ids_on_commit(agency.pk, ids.values_list("pk", flat=True), queued=True)


def fee_for_year(agency: Agency, year: int, on: date) -> FeeItem:
    if on.year != year:
        raise NoAnnualFee(f"The notice date {on} is not in {year}.")
    return annual_fee_item(agency, on)


ISSUED, ALREADY, REFUSED = "issued", "already", "refused"


def invoice_one(
    fse: FoodServiceEstablishment, fee: FeeItem, year: int, on: date, actor: Actor
) -> tuple[str, str]:
    """Invoice `fee` of `year` to one establishment unless it was invoiced it that year:
    (ISSUED | ALREADY | REFUSED, the reason of a refusal). The invoices of the agency are
    locked from the look to the store, so two runs at once invoice it once."""
    with transaction.atomic():
        lock_invoices(fse.agency)
        return _invoice_one(fse, fee, year, on, actor)


def _invoice_one(fse, fee: FeeItem, year: int, on: date, actor: Actor) -> tuple[str, str]:
    done = Invoice.objects.filter(
        establishment=fse, kind="fee", noticed_on__year=year, lines__fee_item__code=fee.code
    )
    if done.exists():
        return ALREADY, ""
    code = f"{fee.code}-{year}-{fse.code}"
    if taken := Invoice.objects.filter(agency_id=fse.agency_id, code=code).first():
        return REFUSED, (
            f"The invoice number {code} is taken by another invoice ({taken.get_kind_display()}"
            f" noticed on {taken.noticed_on}), not this year's annual fee."
        )
    try:
        invoice_issue(
            establishment=fse,
            code=code,
            kind="fee",
            noticed_on=on,
            fees=[fee.code],
            description=f"{fee.description} {year}",
            actor=actor,
        )
    except ValidationError as e:
        return REFUSED, " ".join(e.messages)
    return ISSUED, ""

"""Writes of haulers beyond registering one (registry.services): a hauler's name and licence
kept current, and the service contracts that make an establishment a hauler's customer.

Each validates everything first and raises one `ValidationError` keyed by field, then saves
with its audit row in one transaction: a refused write changes nothing. `today` is the day
the write is made (a date after it is refused); by default the local date.
"""

from __future__ import annotations

from datetime import date

from django.db import transaction

from fogkeeper.audit.services import snapshot
from fogkeeper.reevaluation import reevaluate_ids_on_commit, reevaluate_on_commit

from .devices import together
from .models import FoodServiceEstablishment, Hauler, ServiceContract
from .services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_model,
    check_not_future,
    check_order,
    check_same_agency,
    hauler_register,
    record_end,
    refuse,
)


def hauler_add(
    *,
    agency,
    code: str,
    name: str,
    licence_number: str = "",
    licence_expires_on: date | None = None,
    licensed: bool = True,
    actor: Actor = None,
    **certification,
) -> Hauler:
    """A new hauler of the agency (its code unique in the agency); a licensed hauler names
    its licence number, a certified one (where the pack requires a certification) its own."""
    errors: Errors = {}
    if licensed and not licence_number.strip():
        add_error(errors, "licence_number", "A licensed hauler needs its licence number.")
    _check_certification(errors, **certification)
    (hauler,) = together(
        errors,
        lambda: hauler_register(
            agency=agency,
            code=code,
            name=name,
            licence_number=licence_number.strip(),
            licence_expires_on=licence_expires_on,
            licensed=licensed,
            actor=actor,
            **_certification(**certification),
        ),
    )
    return hauler


CERTIFICATION = ("certification_number", "certification_expires_on", "certified")


def _check_certification(errors: Errors, **certification) -> None:
    unknown = set(certification) - set(CERTIFICATION)
    if unknown:
        raise TypeError(f"unknown hauler fields: {sorted(unknown)}")
    if certification.get("certified") and not certification.get("certification_number", "").strip():
        add_error(
            errors, "certification_number", "A certified hauler needs its certification number."
        )


def _certification(**certification) -> dict:
    if "certification_number" in certification:
        certification["certification_number"] = certification["certification_number"].strip()
    return certification


def hauler_update(
    *,
    hauler: Hauler,
    name: str,
    licence_number: str,
    licence_expires_on: date | None,
    licensed: bool,
    actor: Actor = None,
    reason: str = "",
    **certification,
) -> Hauler:
    """The hauler's name, licence and certification as they are now; the audit row keeps
    what they were (a service is judged by the licence and the certification on its date:
    RULES.md 5, `gcd.unlicensed_hauler`, `gcd.uncertified_hauler`)."""
    errors: Errors = {}
    if licensed and not licence_number.strip():
        add_error(errors, "licence_number", "A licensed hauler needs its licence number.")
    _check_certification(errors, **certification)
    before = snapshot(hauler)
    hauler.name, hauler.licence_number = name.strip(), licence_number.strip()
    hauler.licence_expires_on, hauler.licensed = licence_expires_on, licensed
    for field, value in _certification(**certification).items():
        setattr(hauler, field, value)
    check_model(hauler, errors)
    if errors:
        hauler.refresh_from_db()
    refuse(errors)
    with transaction.atomic():
        hauler.save()
        audit("hauler.update", hauler, actor, before=before, reason=reason)
    reevaluate_ids_on_commit(
        hauler.agency_id, hauler.contracts.values_list("establishment_id", flat=True)
    )
    return hauler


def contract_start(
    *,
    hauler: Hauler,
    establishment: FoodServiceEstablishment,
    since: date,
    today: date | None = None,
    actor: Actor = None,
) -> ServiceContract:
    """The establishment becomes the hauler's customer from `since` (not before it opened,
    not after today); both of one agency, and one open contract per pair."""
    errors: Errors = {}
    check_same_agency(errors, "establishment", establishment, hauler.agency)
    check_not_future(errors, today, since=since)
    check_order(errors, "since", since, establishment.opened_on, "the opening")
    if establishment.closed_on is not None and since >= establishment.closed_on:
        add_error(errors, "since", f"{establishment} closed on {establishment.closed_on}.")
    running = ServiceContract.objects.filter(
        hauler=hauler, establishment=establishment, until__isnull=True
    ).first()
    if running is not None:
        add_error(
            errors,
            "establishment",
            f"{hauler} already serves {establishment.name} (since {running.since}).",
        )
    contract = ServiceContract(hauler=hauler, establishment=establishment, since=since)
    if not errors:
        check_model(contract, errors)
    refuse(errors)
    with transaction.atomic():
        contract.save()
        audit("contract.start", contract, actor)
    reevaluate_on_commit(establishment)
    return contract


def contract_end(
    *,
    contract: ServiceContract,
    until: date,
    today: date | None = None,
    actor: Actor = None,
    reason: str = "",
) -> ServiceContract:
    """The contract ends on `until` (not before it started, not after today): from then the
    establishment is no longer the hauler's customer."""
    errors: Errors = {}
    check_not_future(errors, today, until=until)
    try:
        together(
            errors,
            lambda: record_end(
                contract,
                field="until",
                on=until,
                started_on=contract.since,
                started="its start",
                ended="ended",
                action="contract.end",
                actor=actor,
                reason=reason,
            ),
        )
    finally:
        contract.refresh_from_db()
    reevaluate_on_commit(contract.establishment)
    return contract

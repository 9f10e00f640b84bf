"""Services of the places around an establishment: property owners and their parcels, sewer
segments and the laterals that connect establishments to them. Each validates, saves in one
transaction and writes its audit row (the helpers of registry.services)."""

from __future__ import annotations

from datetime import date
from typing import Any

from fogkeeper.reevaluation import reevaluate_on_commit

from .models import Agency, FoodServiceEstablishment, Lateral, Parcel, PropertyOwner, SewerSegment
from .retention import record_delete
from .services import (
    Actor,
    Errors,
    _check_phone,
    _create,
    _update,
    add_error,
    check_not_future,
    check_positive,
    check_same_agency,
)


def owner_register(
    *,
    agency: Agency,
    name: str,
    mailing_address: str = "",
    phone: str = "",
    email: str = "",
    actor: Actor = None,
) -> PropertyOwner:
    owner = PropertyOwner(
        agency=agency,
        name=name.strip(),
        mailing_address=mailing_address.strip(),
        phone=phone.strip(),
        email=email.strip(),
    )
    return _create(owner, lambda errors: _check_phone(errors, owner.phone), "owner.register", actor)


def owner_update(*, owner: PropertyOwner, actor: Actor = None, **values: Any) -> bool:
    values = {k: v.strip() for k, v in values.items()}
    return _update(
        owner, values, lambda errors: _check_phone(errors, owner.phone), "owner.update", actor
    )


def parcel_register(
    *,
    agency: Agency,
    apn: str,
    address: str,
    owner: PropertyOwner | None = None,
    multi_tenant: bool = False,
    actor: Actor = None,
) -> Parcel:
    """A parcel of the agency, by its assessor's parcel number (one per agency)."""
    parcel = Parcel(
        agency=agency,
        apn=apn.strip(),
        address=address.strip(),
        owner=owner,
        multi_tenant=multi_tenant,
    )

    def check(errors: Errors) -> None:
        check_same_agency(errors, "owner", owner, agency)

    return _create(parcel, check, "parcel.register", actor)


def parcel_update(*, parcel: Parcel, actor: Actor = None, **values: Any) -> bool:
    values = {k: v.strip() if isinstance(v, str) else v for k, v in values.items()}

    def check(errors: Errors) -> None:
        check_same_agency(errors, "owner", parcel.owner, parcel.agency)

    return _update(parcel, values, check, "parcel.update", actor)


def _check_segment(errors: Errors, segment: SewerSegment) -> None:
    """A segment prone to blockage is cleaned at a frequency the agency sets (its SSMP)."""
    check_positive(errors, cleaning_frequency_days=segment.cleaning_frequency_days)
    if segment.prone_to_blockage and segment.cleaning_frequency_days is None:
        add_error(
            errors,
            "cleaning_frequency_days",
            "A segment prone to blockage needs its cleaning frequency (days).",
        )


def segment_register(
    *,
    agency: Agency,
    code: str,
    description: str = "",
    prone_to_blockage: bool = False,
    cleaning_frequency_days: int | None = None,
    actor: Actor = None,
) -> SewerSegment:
    segment = SewerSegment(
        agency=agency,
        code=code.strip(),
        description=description.strip(),
        prone_to_blockage=prone_to_blockage,
        cleaning_frequency_days=cleaning_frequency_days,
    )
    return _create(segment, lambda e: _check_segment(e, segment), "segment.register", actor)


def segment_update(*, segment: SewerSegment, actor: Actor = None, **values: Any) -> bool:
    values = {k: v.strip() if isinstance(v, str) else v for k, v in values.items()}
    return _update(
        segment, values, lambda errors: _check_segment(errors, segment), "segment.update", actor
    )


def _check_lateral(errors: Errors, lateral: Lateral, today: date) -> None:
    check_same_agency(errors, "segment", lateral.segment, lateral.establishment.agency)
    check_not_future(errors, today, last_inspected_on=lateral.last_inspected_on)


def lateral_add(
    *,
    establishment: FoodServiceEstablishment,
    segment: SewerSegment | None,
    today: date,
    description: str = "",
    last_inspected_on: date | None = None,
    actor: Actor = None,
) -> Lateral:
    """The establishment's sewer lateral to a segment of the same agency's public sewer."""
    lateral = Lateral(
        establishment=establishment,
        segment=segment,
        description=description.strip(),
        last_inspected_on=last_inspected_on,
    )
    reevaluate_on_commit(establishment)
    return _create(lateral, lambda e: _check_lateral(e, lateral, today), "lateral.add", actor)


def lateral_update(*, lateral: Lateral, today: date, actor: Actor = None, **values: Any) -> bool:
    values = {k: v.strip() if isinstance(v, str) else v for k, v in values.items()}
    reevaluate_on_commit(lateral.establishment)
    return _update(
        lateral, values, lambda e: _check_lateral(e, lateral, today), "lateral.update", actor
    )


def lateral_remove(*, lateral: Lateral, on: date, actor: Actor = None, reason: str = "") -> None:
    """The lateral is taken off the establishment's record (abandoned, or entered in error),
    unless the record retention period keeps it (`record_delete_check`)."""
    record_delete(lateral, actor=actor, on=on, reason=reason or f"lateral removed on {on}")
    reevaluate_on_commit(lateral.establishment)

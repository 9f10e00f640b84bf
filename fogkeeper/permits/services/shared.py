"""What the writes of permits share: a permit's state and title, and the checks made of its
terms both when it is issued and when they are modified."""

from __future__ import annotations

from datetime import date

from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import Errors, add_error
from fogkeeper.rules.errors import ParameterNotInForce

from ..models import Permit

_CLOSED = ("ended", "revoked", "superseded")
FREQUENCY_RULE = "gcd.frequency_invalid"
ALLOWED_FREQUENCIES = "gcd.allowed_frequencies_days"


def _title(establishment: FoodServiceEstablishment) -> str:
    return establishment.agency.get_pack().titles.get("permit", "permit")


def _check_open(errors: Errors, permit: Permit) -> None:
    if permit.status in _CLOSED or permit.revoked_on is not None:
        state = "revoked" if permit.revoked_on else permit.get_status_display().lower()
        add_error(errors, "permit", f"{permit.number} is {state}.")


def check_frequency(errors: Errors, establishment, days: int | None, on: date) -> None:
    """Where the ordinance lets the manager assign only some cleaning frequencies (the pack
    has `gcd.frequency_invalid`), a permit's frequency must be one of them."""
    pack = establishment.agency.get_pack()
    if days is None or not pack.has(FREQUENCY_RULE):
        return
    try:
        allowed = pack.param(ALLOWED_FREQUENCIES, on)
    except ParameterNotInForce:
        return
    if days not in allowed:
        listed = ", ".join(str(a) for a in allowed)
        add_error(
            errors,
            "service_frequency_days",
            f"{days} days is not a frequency the ordinance allows ({listed} days; "
            f"{pack.citation(FREQUENCY_RULE)}).",
        )

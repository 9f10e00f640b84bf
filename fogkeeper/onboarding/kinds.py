"""The kinds of record an agency onboards from its spreadsheets, their columns and how a cell
is read. The vocabulary (categories, device kinds) is the agency's pack's, so a template and
its checks follow the ordinance the agency enforces."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from fogkeeper.registry.cells import read_date, read_decimal, read_yes_no

EARLIEST = date(1900, 1, 1)


@dataclass(frozen=True)
class Column:
    name: str
    required: bool
    meaning: str
    read: Callable[[str, Any], tuple[Any, str]]  # (text, context) -> (value, problem)
    example: str = ""


def text(limit: int) -> Callable[[str, Any], tuple[Any, str]]:
    def read(value: str, context) -> tuple[Any, str]:
        if len(value) > limit:
            return None, f"longer than {limit} characters"
        return value, ""

    return read


def day(value: str, context) -> tuple[Any, str]:
    """A day that has come: what happened is not dated after today."""
    found, problem = any_day(value, context)
    if found is not None and found > context.today:
        return None, f"{found} is after today ({context.today})"
    return found, problem


def any_day(value: str, context) -> tuple[Any, str]:
    """A day, past or to come (a licence's expiry)."""
    if not value:
        return None, ""
    found = read_date(value)
    if found is None:
        return None, f"not a date: {value!r} (use YYYY-MM-DD or MM/DD/YYYY)"
    if found < EARLIEST:
        return None, f"{found} is before 1900"
    return found, ""


def yes_no(default: bool) -> Callable[[str, Any], tuple[Any, str]]:
    def read(value: str, context) -> tuple[Any, str]:
        found = read_yes_no(value, default)
        if found is None:
            return None, f"not yes or no: {value!r}"
        return found, ""

    return read


def number(places: int, largest: str) -> Callable[[str, Any], tuple[Any, str]]:
    def read(value: str, context) -> tuple[Any, str]:
        return read_decimal(value, places, Decimal(largest))

    return read


def whole(value: str, context) -> tuple[Any, str]:
    found, problem = read_decimal(value, 0, Decimal(100_000))
    return (int(found) if found is not None else None), problem


def category(value: str, context) -> tuple[Any, str]:
    if value and value not in context.pack.categories:
        return (
            None,
            _not_in(value, "a category", context.pack, context.pack.categories),
        )
    return value, ""


def device_kind(value: str, context) -> tuple[Any, str]:
    if value not in context.pack.device_kinds:
        return (
            None,
            _not_in(value, "a device kind", context.pack, context.pack.device_kinds),
        )
    return value, ""


def coordinate(largest: int) -> Callable[[str, Any], tuple[Any, str]]:
    def read(value: str, context) -> tuple[Any, str]:
        if not value:
            return None, ""
        sign, plain = (-1, value[1:]) if value.startswith("-") else (1, value)
        found, problem = read_decimal(plain, 6, Decimal(largest))
        if found is None:
            return None, problem
        return (sign * found).quantize(Decimal("0.000001")), ""

    return read


def _not_in(value: str, what: str, pack, words) -> str:
    return f"{value!r} is not {what} of {pack.id} ({', '.join(words)})"


@dataclass(frozen=True)
class Kind:
    name: str  # as in the command and the page: "establishments"
    title: str
    key: tuple[str, ...]  # the agency's own identifiers of a record of this kind
    columns: tuple[Column, ...]

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)


ESTABLISHMENTS = Kind(
    "establishments",
    "Establishments and their operators",
    ("code",),
    (
        Column("code", True, "the agency's id of the establishment", text(40), "FSE-0001"),
        Column("name", True, "its business name", text(200), "Harbor Grill"),
        Column("address", True, "street address", text(200), "101 Pier Way"),
        Column("city", False, "city", text(100)),
        Column("zip_code", False, "ZIP code", text(10)),
        Column(
            "category", False, "one of the ordinance's categories; blank: the default", category
        ),
        Column("on_public_sewer", False, "yes or no; blank: yes", yes_no(True)),
        Column("opened_on", True, "the day it opened", day, "2015-03-01"),
        Column("closed_on", False, "the day it closed, if it has", day),
        Column("operator_name", True, "who operates it (a new or known operator)", text(200)),
        Column("operator_since", False, "since when; blank: since it opened", day),
        Column("latitude", False, "degrees, six decimals at most", coordinate(90)),
        Column("longitude", False, "degrees, six decimals at most", coordinate(180)),
    ),
)

HAULERS = Kind(
    "haulers",
    "Grease haulers",
    ("code",),
    (
        Column("code", True, "the agency's id of the hauler", text(40), "H-1"),
        Column("name", True, "the hauler's name", text(200), "Coastal Pumping"),
        Column("licence_number", False, "its licence number", text(60)),
        Column("licence_expires_on", False, "when the licence expires", any_day),
        Column("licensed", False, "yes or no; blank: yes", yes_no(True)),
    ),
)

DEVICES = Kind(
    "devices",
    "Grease control devices",
    ("establishment_code", "code"),
    (
        Column(
            "establishment_code", True, "the establishment's id (its code)", text(40), "FSE-0001"
        ),
        Column("code", True, "the device's id at that establishment", text(40), "GI-1"),
        Column("kind", True, "one of the ordinance's device kinds", device_kind),
        Column("installed_on", True, "the day it was installed", day, "2015-03-01"),
        Column("removed_on", False, "the day it was removed, if it was", day),
        Column("location", False, "where it is", text(200)),
        Column("capacity_gallons", False, "gallons", number(1, "9999999.9")),
        Column("design_depth_inches", False, "inches", number(2, "9999.99")),
        Column("compartments", False, "a whole number", whole),
        Column("manhole_diameter_inches", False, "inches", number(2, "9999.99")),
        Column("service_frequency_days", False, "days between pump-outs set for it", whole),
    ),
)

KINDS = {k.name: k for k in (ESTABLISHMENTS, HAULERS, DEVICES)}

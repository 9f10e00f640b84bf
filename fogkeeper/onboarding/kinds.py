"""The kinds of record an agency onboards from its spreadsheets, their columns and how a cell
is read. The vocabulary (categories, device kinds, checklist items) is the agency's pack's,
so a template and its checks follow the ordinance the agency enforces.

A kind names its model, the columns that identify a record (its key: the agency's own
identifiers, found again on a second import), where each column is kept (`Column.path`, an
ORM path from the model, which the export reads) and `build`, which turns a row's values into
the model's fields, naming each problem by column. The registry's kinds are here; the kinds
of what happened (permits, pump-outs, trainings, inspections...) are in history.py."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

from fogkeeper.formats import live, restore
from fogkeeper.registry.cells import read_date, read_decimal, read_yes_no
from fogkeeper.registry.models import INTERCEPTOR_EXCEPTIONS, normalise_address

from . import notices
from .notices import PLACES, ROUNDED
from .rows import Row

EARLIEST = date(1900, 1, 1)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # all but tab and line ends
Reader = Callable[[str, Any], tuple[Any, str]]  # (text, context) -> (value, problem)


@dataclass(frozen=True)
class Column:
    name: str
    required: bool
    meaning: str
    read: Reader
    example: str = ""
    path: str = ""  # where the export reads it (an ORM path from the kind's model)

    @property
    def source(self) -> str:
        return self.path or self.name

    @property
    def numeric(self) -> bool:
        """A column of numbers: its cell "-5" is minus five, read as a number, never a formula
        (the formula rule, formats.live, is for the text of every other column)."""
        return getattr(self.read, "numeric", False)

    def cell(self, text: str) -> tuple[str, str]:
        """A cell's text as its reader is to read it, or why it is not read: in a column of
        text (or dates, words...), a cell a spreadsheet would run as a formula is refused, and
        one neutralised by an apostrophe (as the exports write it) is read without it. A
        control character (a NUL...) is refused in every column."""
        control = _CONTROL.search(text)
        if control is not None:
            return "", (
                f"holds a control character (U+{ord(control[0]):04X}) at character "
                f"{control.start() + 1}, which is not text and cannot be stored"
            )
        if self.numeric:
            return text, ""
        if live(text):
            shown = text if len(text) <= 40 else text[:40] + "…"
            return "", (
                f"starts like a formula ({shown!r}), which a spreadsheet would run; put an "
                "apostrophe before it to keep it as text"
            )
        return restore(text), ""


def text(limit: int) -> Reader:
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


def yes_no(default: bool | None) -> Reader:
    def read(value: str, context) -> tuple[Any, str]:
        found = read_yes_no(value, default)
        if found is None:
            return None, f"not yes or no: {value!r}"
        return found, ""

    return read


def numeric(read: Reader) -> Reader:
    """Marks a reader of numbers (Column.numeric)."""
    read.numeric = True  # type: ignore[attr-defined]
    return read


def number(places: int, largest: str) -> Reader:
    @numeric
    def read(value: str, context) -> tuple[Any, str]:
        return read_decimal(value, places, Decimal(largest))

    return read


def positive(places: int, largest: str) -> Reader:
    """A number more than 0 (a depth, a diameter)."""

    @numeric
    def read(value: str, context) -> tuple[Any, str]:
        found, problem = read_decimal(value, places, Decimal(largest))
        if found is not None and found <= 0:
            return None, f"must be more than 0 (got {value})"
        return found, problem

    return read


@numeric
def whole(value: str, context) -> tuple[Any, str]:
    found, problem = read_decimal(value, 0, Decimal(100_000))
    return (int(found) if found is not None else None), problem


@numeric
def days(value: str, context) -> tuple[Any, str]:
    """A number of days, at least one."""
    found, problem = whole(value, context)
    if found == 0:
        return None, "must be more than 0 days"
    return found, problem


def one_of(words: dict[str, str] | list[tuple[str, str]], what: str) -> Reader:
    allowed = dict(words)

    def read(value: str, context) -> tuple[Any, str]:
        if value not in allowed:
            return None, f"{value!r} is not {what} ({', '.join(allowed)})"
        return value, ""

    return read


def category(value: str, context) -> tuple[Any, str]:
    if value and value not in context.pack.categories:
        return None, _not_in(value, "a category", context.pack, context.pack.categories)
    return value, ""


def device_kind(value: str, context) -> tuple[Any, str]:
    if value not in context.pack.device_kinds:
        return None, _not_in(value, "a device kind", context.pack, context.pack.device_kinds)
    return value, ""


def checklist_item(value: str, context) -> tuple[Any, str]:
    if value not in context.pack.checklist:
        return None, _not_in(value, "a checklist item", context.pack, context.pack.checklist)
    return value, ""


def coordinate(largest: int, axis: str) -> Reader:
    """Degrees, signed, as precise as the cell gives them: the establishment's row rounds
    them to the PLACES the register keeps and says so (a GIS export writes 14 decimals)."""

    @numeric
    def read(value: str, context) -> tuple[Any, str]:
        negative = value.startswith("-")
        found, problem = read_decimal(value.removeprefix("-"), MANY_PLACES, Decimal(1000))
        if problem:
            return None, problem.replace(value.removeprefix("-"), value)
        if found is None:
            return None, ""
        found = -found if negative else found
        if abs(found) > largest:
            return None, f"{value} is not a {axis}: it lies between -{largest} and {largest}"
        return found, ""

    return read


MANY_PLACES = 20  # within the 28 digits of a Decimal, with the degrees


def rounded(value: Decimal) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-PLACES), rounding=ROUND_HALF_EVEN)


def _not_in(value: str, what: str, pack, words) -> str:
    return f"{value!r} is not {what} of {pack.id} ({', '.join(words)})"


@dataclass(frozen=True)
class Kind:
    name: str  # as in the command and the page: "establishments"
    title: str
    key: tuple[str, ...]  # the agency's own identifiers of a record of this kind
    columns: tuple[Column, ...]
    model: str  # "app_label.Model"
    agency: str  # the ORM path from the model to its agency
    build: Callable[[Row], dict | None]  # the model's fields of a row, None if it has problems
    write: Callable | None = None  # how new records are stored, when not row for row
    export: Callable | None = None  # the rows of the export, when not read by Column.path
    fixed: dict[str, Any] = field(default_factory=dict)  # fields of every new record
    warn: Callable | None = None  # the file's warnings, from its checked rows (warnings.py)

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)

    def get_model(self):
        from django.apps import apps

        return apps.get_model(self.model)

    @property
    def stored_key(self) -> tuple[str, ...]:
        """Where the key's columns are kept, as ORM paths."""
        return tuple(self.column(c).source for c in self.key)


ESTABLISHMENT_CODE = "establishment__code"


def establishment_column(path: str = ESTABLISHMENT_CODE, required: bool = True) -> Column:
    meaning = "the establishment's id (its code)" + ("" if required else "; blank: none")
    return Column("establishment_code", required, meaning, text(40), "FSE-0001", path=path)


def device_column(required: bool, path: str = "device__code") -> Column:
    meaning = "the device's id at that establishment" + ("" if required else "; blank: none")
    return Column("device_code", required, meaning, text(40), "GI-1", path=path)


# -- establishments, haulers, devices, approved exceptions, changes of operation ------------


def _establishment(row: Row) -> dict | None:
    v = row.values
    record = {k: v[k] for k in _ESTABLISHMENT_FIELDS if k in v}
    opened, stored = v.get("opened_on"), row.lookups.establishments.get(v["code"])
    row.not_before("closed_on", opened, "the opening")
    row.not_before("operator_since", opened, "the opening")
    row.not_before("food_grinder_installed_on", opened, "the opening")
    if ("latitude" in v) != ("longitude" in v):
        missing = "longitude" if "longitude" in v else "latitude"
        row.problem(missing, "give both the latitude and the longitude, or neither")
    for axis in ("latitude", "longitude"):
        if axis in v and rounded(v[axis]) != v[axis]:
            record[axis] = rounded(v[axis])
            row.note(ROUNDED, f"{axis} {v[axis]} kept as {record[axis]}")
    if "address" in v:
        record["normalised_address"] = normalise_address(v["address"])
    if stored is None:
        record["category"] = v.get("category") or row.context.pack.default_category
        record["+operator"] = (v["operator_name"], v.get("operator_since") or opened)
    else:
        _same_operator(row, stored)
        if stored.closed_on and opened and stored.closed_on < opened and "closed_on" not in v:
            row.problem("opened_on", f"{opened} is after the closing ({stored.closed_on})")
    return None if row.problems else record


def _same_operator(row: Row, stored) -> None:
    """An operator named for a known establishment is the one on record: a change of operator
    ends the permit, so it is recorded on the establishment's page, with its date."""
    name, since = row.values["operator_name"], row.values.get("operator_since")
    current = row.lookups.operators.get(stored.pk)
    if current is None:
        return
    if name != current[0] or (since is not None and since != current[1]):
        row.problem(
            "operator_name",
            f"{current[0]} operates {row.values['code']} since {current[1]} in fogkeeper; a "
            "change of operator is recorded on the establishment's page (it ends the permit)",
        )


def _write_establishments(records: list[dict], context) -> None:
    """New establishments, each with a new operator of its own operating it since the day
    given (as establishment_register does it, in bulk)."""
    from fogkeeper.registry.models import FoodServiceEstablishment, Operator, OperatorTenure

    from . import bulk

    held = [record.pop("+operator") for record in records]
    fses = FoodServiceEstablishment.objects.bulk_create(
        [FoodServiceEstablishment(**record) for record in records], batch_size=bulk.BATCH
    )
    operators = Operator.objects.bulk_create(
        [Operator(agency=context.agency, name=name) for name, _ in held], batch_size=bulk.BATCH
    )
    bulk.insert(
        OperatorTenure,
        [
            {"establishment_id": fse.pk, "operator_id": operator.pk, "since": since}
            for fse, operator, (_, since) in zip(fses, operators, held, strict=True)
        ],
    )


_ESTABLISHMENT_FIELDS = (
    "name",
    "address",
    "city",
    "state",
    "zip_code",
    "category",
    "on_public_sewer",
    "opened_on",
    "closed_on",
    "remodeled_on",
    "food_grinder",
    "food_grinder_installed_on",
    "variance_granted",
    "interceptor_exception",
    "interceptor_plans_submitted_on",
    "latitude",
    "longitude",
)

ESTABLISHMENTS = Kind(
    "establishments",
    "Establishments and their operators",
    ("code",),
    (
        Column("code", True, "the agency's id of the establishment", text(40), "FSE-0001"),
        Column("name", True, "its business name", text(200), "Harbor Grill"),
        Column("address", True, "street address", text(200), "101 Pier Way"),
        Column("city", False, "city", text(100)),
        Column("state", False, "the state's two-letter postal code", text(2)),
        Column("zip_code", False, "ZIP code", text(10)),
        Column(
            "category", False, "one of the ordinance's categories; blank: the default", category
        ),
        Column("on_public_sewer", False, "yes or no; blank: yes", yes_no(True)),
        Column("opened_on", True, "the day it opened", day, "2015-03-01"),
        Column("closed_on", False, "the day it closed, if it has", day),
        Column(
            "operator_name",
            True,
            "who operates it (a new or known operator)",
            text(200),
            "Harbor Foods LLC",
        ),
        Column("operator_since", False, "since when; blank: since it opened", day),
        Column("remodeled_on", False, "its last remodel or change of use, if any", day),
        Column(
            "food_grinder",
            False,
            "yes or no: a food grinder discharges to the sewer",
            yes_no(False),
        ),
        Column("food_grinder_installed_on", False, "when the food grinder was installed", day),
        Column(
            "variance_granted", False, "yes or no: the agency granted it a variance", yes_no(False)
        ),
        Column(
            "interceptor_exception",
            False,
            "why it has no interceptor, where the ordinance allows one: space or slope",
            one_of(INTERCEPTOR_EXCEPTIONS, "space or slope"),
        ),
        Column(
            "interceptor_plans_submitted_on",
            False,
            "when plans of an interceptor were submitted",
            day,
        ),
        Column(
            "latitude",
            False,
            "degrees north, negative south; kept to six decimals",
            coordinate(90, "latitude"),
            "33.4269",
        ),
        Column(
            "longitude",
            False,
            "degrees east, negative west (all of the United States); kept to six decimals",
            coordinate(180, "longitude"),
            "-117.6120",
        ),
    ),
    model="registry.FoodServiceEstablishment",
    agency="agency",
    build=_establishment,
    write=_write_establishments,
    warn=notices.establishments,
)


def _hauler(row: Row) -> dict | None:
    return {k: row.values[k] for k in HAULER_FIELDS if k in row.values}


HAULER_FIELDS = ("name", "licence_number", "licence_expires_on", "licensed")

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
    model="registry.Hauler",
    agency="agency",
    build=_hauler,
)

_DESIGN = (
    "location",
    "capacity_gallons",
    "design_depth_inches",
    "compartments",
    "manhole_diameter_inches",
    "service_frequency_days",
)


def _device(row: Row) -> dict | None:
    v = row.values
    fse = row.establishment()
    if fse is None:
        return None
    record = {"establishment_id": fse.pk, "kind": v["kind"], "installed_on": v["installed_on"]}
    record |= {k: v[k] for k in ("removed_on", *_DESIGN) if k in v}
    row.not_before("removed_on", v["installed_on"], "the installation")
    stored = row.lookups.devices.get((v["establishment_code"], v["code"]))
    frequency = v.get("service_frequency_days")
    if stored is not None and "service_frequency_days" in v and frequency != stored.frequency:
        row.problem(
            "service_frequency_days",
            (
                f"{frequency} here, {stored.frequency or 'blank'} on the device: a frequency is "
                "changed on the device's page, with its reason"
            ),
        )
    return None if row.problems else record


DEVICES = Kind(
    "devices",
    "Grease control devices",
    ("establishment_code", "code"),
    (
        establishment_column(),
        Column("code", True, "the device's id at that establishment", text(40), "GI-1"),
        Column("kind", True, "one of the ordinance's device kinds", device_kind),
        Column("installed_on", True, "the day it was installed", day, "2015-03-01"),
        Column("removed_on", False, "the day it was removed, if it was", day),
        Column("location", False, "where it is", text(200)),
        Column("capacity_gallons", False, "gallons", number(1, "9999999.9")),
        Column("design_depth_inches", False, "inches", positive(2, "9999.99")),
        Column("compartments", False, "a whole number", whole),
        Column("manhole_diameter_inches", False, "inches", positive(2, "9999.99")),
        Column("service_frequency_days", False, "days between pump-outs set for it", days),
    ),
    model="registry.GreaseControlDevice",
    agency="establishment__agency",
    build=_device,
    warn=notices.devices,
)

"""The case file's schema: its structure and types, checked by pydantic (CASEFILE.md).

`casefile.parse_case` reads most case files without it, into the Structs of records.py;
this schema reads the others, and words every problem of structure and type with the path
of its field. It is imported only then (pydantic takes a while to import).
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    StringConstraints,
    ValidationError,
    model_validator,
)

from .actions import _to_datetime, _to_money
from .errors import Problem
from .records import DesignField


def _drop_nulls(value: Any) -> Any:
    """`null` counts as absent (CASEFILE.md), so a null field takes its default."""
    if type(value) is dict and None in value.values():
        return {k: v for k, v in value.items() if v is not None}
    return value


def _drop_nulls_in_items(value: Any) -> Any:
    if type(value) is list:
        for x in value:
            if type(x) is dict and None in x.values():
                return [_drop_nulls(x) for x in value]
    return value


# Dates and ids are checked natively by pydantic (this is the hot path of the sweep);
# their errors are worded in `_problems_from`.
Date = Annotated[date, Field(strict=False)]
DateTime = Annotated[datetime, PlainValidator(_to_datetime)]
Money = Annotated[Decimal, PlainValidator(_to_money)]
Id = Annotated[str, StringConstraints(strict=True, min_length=1, pattern=r"\S")]
NULLS_IN_ITEMS = BeforeValidator(_drop_nulls_in_items)
Depth = Annotated[float, Field(ge=0, strict=True)]
Count = Annotated[int, Field(ge=0, strict=True)]
Frequency = Annotated[int, Field(gt=0, strict=True)]
Flag = Annotated[bool, Field(strict=True)]
Text = Annotated[str, Field(strict=True)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class _Single(_Model):
    """A model that is not a list item (list items lose their nulls with their list)."""

    @model_validator(mode="before")
    @classmethod
    def _nulls(cls, value: Any) -> Any:
        return _drop_nulls(value)


class Operator(_Single):
    name: Text
    since: Date


class Change(_Model):
    date: Date
    kind: Literal["remodel", "expansion", "process"]
    notified_on: Date | None = None


class Establishment(_Single):
    id: Id
    name: Text | None = None
    category: Id | None = None  # one of the pack's categories; absent: its default_category
    on_public_sewer: Flag = True
    opened_on: Date
    closed_on: Date | None = None
    operator: Operator
    remodeled_on: Date | None = None
    food_grinder: Flag = False
    food_grinder_installed_on: Date | None = None
    variance_granted: Flag = False
    interceptor_exception: Literal["space", "slope"] | None = None
    interceptor_plans_submitted_on: Date | None = None
    changes: Annotated[list[Change], NULLS_IN_ITEMS] = []


class Limit(_Model):
    max: Annotated[float, Field(ge=0)]
    unit: Id


class Permit(_Single):
    number: Id
    holder: Text
    issued_on: Date
    expires_on: Date
    renewal_applied_on: Date | None = None
    renewal_denied_on: Date | None = None
    suspended_from: Date | None = None
    suspended_until: Date | None = None
    revoked_on: Date | None = None
    service_frequency_days: Frequency | None = None
    yellow_grease_frequency_days: Frequency | None = None
    discharge_limits: dict[Id, Limit] = {}


class ApprovedException(_Model):
    """A design field the agency approved below the pack's limit (RULES.md 11.11)."""

    field: DesignField
    approved_on: Date
    by: Text | None = None
    reference: Text | None = None


class Approval(_Model):
    """A value allowed "unless approved" (a longer pump-out interval), approved for a device
    by a named official under a reference; in force from approved_on through ends_on."""

    field: Literal["service_frequency_days"]
    value: Frequency
    approved_on: Date
    approved_by: Text
    reference: Text
    ends_on: Date | None = None


class Device(_Model):
    id: Id
    kind: Id  # one of the pack's device kinds
    installed_on: Date
    capacity_gallons: Depth | None = None
    design_depth_inches: Depth | None = None
    compartments: Count | None = None
    manhole_diameter_inches: Depth | None = None
    service_frequency_days: Frequency | None = None
    approved_exceptions: Annotated[list[ApprovedException], NULLS_IN_ITEMS] = []
    sizing_inputs: dict[Id, Depth] = {}  # what a pack's sizing formula reads (gcd.sizing)
    approvals: Annotated[list[Approval], NULLS_IN_ITEMS] = []


class Hauler(_Model):
    """A hauler; `licence_expires_on`, when given, is the last day its licence is valid: a
    service after it is done unlicensed, whatever `licensed` says."""

    id: Id
    name: Text | None = None
    licensed: Flag = True
    licence_expires_on: Date | None = None
    # a certification the pack may require beside the licence (hauler.certification)
    certified: Flag = True
    certification_expires_on: Date | None = None

    def certified_on(self, day: date) -> bool:
        expired = self.certification_expires_on is not None and day > self.certification_expires_on
        return self.certified and not expired

    def licensed_on(self, day: date) -> bool:
        expired = self.licence_expires_on is not None and day > self.licence_expires_on
        return self.licensed and not expired


class Reading(_Model):
    """Depths measured in a device: before a pump-out, or at an inspection."""

    fog_inches: Depth | None = None
    solids_inches: Depth | None = None
    final_chamber_floating_oil: Flag | None = None
    sludge_to_outlet_inches: Depth | None = None


class Service(Reading):
    id: Id
    device: Id
    date: Date
    hauler: Id | None = None
    full_pump_out: Flag = True
    gallons_removed: Depth | None = None


class Pickup(_Model):
    date: Date
    hauler: Id | None = None
    gallons: Depth | None = None


class Employee(_Model):
    id: Id
    name: Text | None = None
    hired_on: Date
    left_on: Date | None = None
    kitchen_duties: Flag = True
    contractor: Flag = False


class Attendee(_Model):
    employee: Id
    signed: Flag = True


class Training(_Model):
    id: Id
    date: Date
    attendees: Annotated[list[Attendee], NULLS_IN_ITEMS] = []


class Measurement(Reading):
    device: Id


class Answer(_Model):
    item: Text
    compliant: Flag
    device: Id | None = None
    note: Text | None = None


class Inspection(_Model):
    id: Id
    date: Date
    measurements: Annotated[list[Measurement], NULLS_IN_ITEMS] = []
    answers: Annotated[list[Answer], NULLS_IN_ITEMS] = []


class Incident(_Model):
    id: Id
    date: Date
    kind: Text
    attributed: Flag = False
    gallons: Depth | None = None
    written_report_on: Date | None = None
    clearance_inspection_on: Date | None = None


class Sample(_Model):
    """A sample of the discharge analysed for one parameter (RULES.md 11.12)."""

    id: Id
    date: Date
    device: Id | None = None
    parameter: Id
    value: Annotated[float, Field(ge=0)]
    unit: Id
    method: Text | None = None


class RawAction(BaseModel):
    """An enforcement action before its fields are read against the pack."""

    model_config = ConfigDict(extra="allow", frozen=True)
    id: Id
    type: Text


class History(_Single):
    """The day the agency's pump-out records start, and the days of grace after it: a device
    in place before it with no full pump-out on record is not overdue until the grace ends."""

    starts: Date
    grace_days: Frequency


class Report(_Model):
    """A report the agency required of the establishment, due on one day (CASEFILE.md
    `reports`): its kind is one of the pack's `reports:`, submitted on the day it came in."""

    id: Id
    kind: Id
    due_on: Date
    submitted_on: Date | None = None


class CaseFileModel(_Single):
    jurisdiction: Text
    as_of: Date | None = None
    establishment: Establishment
    permit: Permit | None = None
    devices: Annotated[list[Device], NULLS_IN_ITEMS] = []
    haulers: Annotated[list[Hauler], NULLS_IN_ITEMS] = []
    services: Annotated[list[Service], NULLS_IN_ITEMS] = []
    yellow_grease_pickups: Annotated[list[Pickup], NULLS_IN_ITEMS] = []
    employees: Annotated[list[Employee], NULLS_IN_ITEMS] = []
    trainings: Annotated[list[Training], NULLS_IN_ITEMS] = []
    inspections: Annotated[list[Inspection], NULLS_IN_ITEMS] = []
    incidents: Annotated[list[Incident], NULLS_IN_ITEMS] = []
    samples: Annotated[list[Sample], NULLS_IN_ITEMS] = []
    enforcement: Annotated[list[RawAction], NULLS_IN_ITEMS] = []
    history: History | None = None
    reports: Annotated[list[Report], NULLS_IN_ITEMS] = []


def _path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


_MESSAGES = {
    "missing": "required",
    "extra_forbidden": "unknown field",
}


def problems_from(err: ValidationError) -> list[Problem]:
    problems = []
    for e in err.errors(include_url=False):
        loc = tuple(p for p in e["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        kind = e["type"]
        msg = _MESSAGES.get(kind)
        if kind.startswith("date_") and "input" in e:
            msg = f"not a date: {e['input']!r} (expected YYYY-MM-DD)"
        elif kind in ("string_too_short", "string_pattern_mismatch"):
            msg = "must not be empty or blank"
        if msg is None:
            msg = e["msg"].removeprefix("Value error, ")
            if e["type"] not in ("value_error",) and "input" in e:
                msg = f"{msg}, got {e['input']!r}"
        problems.append(Problem(_path(loc), msg))
    return problems

"""The records of a validated case file, as the engine reads them: msgspec Structs.

`casefile.parse_case` converts a case file into these in C (`msgspec.convert`), the hot
path of the sweep. The types here accept a strict subset of what the pydantic schema
(schema.py) accepts (dates only as `date` or `YYYY-MM-DD`, numbers only as numbers, no
nulls where a default stands), so whatever they accept the schema accepts with equal
values; anything else goes through the schema, which words the problems or, when the
input is valid after all, whose result is copied into these Structs (`from_schema`).
Field names and defaults are the schema's; tests/rules/test_fast_parse.py checks that.
"""

from __future__ import annotations

from datetime import date as Date  # Date: several records have a field named `date`
from typing import Annotated, Any, Literal

import msgspec

# Not blank, too, as the schema says: `casefile._fast_model` checks that on the whole file
# at once (a regex per field here would cost more than the rest of the conversion).
Id = Annotated[str, msgspec.Meta(min_length=1)]
Depth = Annotated[float, msgspec.Meta(ge=0)]
Count = Annotated[int, msgspec.Meta(ge=0)]
Frequency = Annotated[int, msgspec.Meta(gt=0)]
DesignField = Literal[
    "capacity_gallons", "design_depth_inches", "compartments", "manhole_diameter_inches"
]
# the design figures of a device that a pack may limit and an approved exception excuse
DESIGN_FIELDS = (
    "capacity_gallons",
    "design_depth_inches",
    "compartments",
    "manhole_diameter_inches",
)


class _Record(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


class Operator(_Record, kw_only=True, frozen=True, gc=False):
    name: str
    since: Date


class Change(_Record, kw_only=True, frozen=True, gc=False):
    date: Date
    kind: Literal["remodel", "expansion", "process"]
    notified_on: Date | None = None


class Establishment(_Record, kw_only=True, frozen=True, gc=False):
    id: Id
    name: str | None = None
    category: Id | None = None
    on_public_sewer: bool = True
    opened_on: Date
    closed_on: Date | None = None
    operator: Operator
    remodeled_on: Date | None = None
    food_grinder: bool = False
    food_grinder_installed_on: Date | None = None
    variance_granted: bool = False
    interceptor_exception: Literal["space", "slope"] | None = None
    interceptor_plans_submitted_on: Date | None = None
    changes: list[Change] = []


class Limit(_Record, kw_only=True, frozen=True, gc=False):
    max: Depth
    unit: Id


class Permit(_Record, kw_only=True, frozen=True, gc=False):
    number: Id
    holder: str
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


class ApprovedException(_Record, kw_only=True, frozen=True, gc=False):
    field: DesignField
    approved_on: Date
    by: str | None = None
    reference: str | None = None


class Approval(_Record, kw_only=True, frozen=True, gc=False):
    """A value the ordinance allows "unless approved" (a longer pump-out interval), approved
    for a device by a named official under a reference (a letter or resolution number); in
    force from `approved_on` through `ends_on` (its last day), when it has one."""

    field: Literal["service_frequency_days"]
    value: Frequency
    approved_on: Date
    approved_by: str
    reference: str
    ends_on: Date | None = None

    def in_force_on(self, day: Date) -> bool:
        return self.approved_on <= day and (self.ends_on is None or day <= self.ends_on)


class Device(_Record, kw_only=True, frozen=True, gc=False):
    id: Id
    kind: Id
    installed_on: Date
    capacity_gallons: Depth | None = None
    design_depth_inches: Depth | None = None
    compartments: Count | None = None
    manhole_diameter_inches: Depth | None = None
    service_frequency_days: Frequency | None = None
    approved_exceptions: list[ApprovedException] = []
    sizing_inputs: dict[Id, Depth] = {}  # what a pack's sizing formula reads (gcd.sizing)
    approvals: list[Approval] = []  # approved longer intervals, by whom, when, until


class Hauler(_Record, kw_only=True, frozen=True, gc=False):
    """A hauler; `licence_expires_on`, when given, is the last day its licence is valid: a
    service after it is done unlicensed, whatever `licensed` says."""

    id: Id
    name: str | None = None
    licensed: bool = True
    licence_expires_on: Date | None = None
    # a certification the pack may require beside the licence (hauler.certification)
    certified: bool = True
    certification_expires_on: Date | None = None

    def certified_on(self, day: Date) -> bool:
        expired = self.certification_expires_on is not None and day > self.certification_expires_on
        return self.certified and not expired

    def licensed_on(self, day: Date) -> bool:
        expired = self.licence_expires_on is not None and day > self.licence_expires_on
        return self.licensed and not expired


class Reading(_Record, kw_only=True, frozen=True, gc=False):
    """Depths measured in a device: before a pump-out, or at an inspection."""

    fog_inches: Depth | None = None
    solids_inches: Depth | None = None
    final_chamber_floating_oil: bool | None = None
    sludge_to_outlet_inches: Depth | None = None


class Service(Reading, kw_only=True, frozen=True, gc=False):
    id: Id
    device: Id
    date: Date
    hauler: Id | None = None
    full_pump_out: bool = True
    gallons_removed: Depth | None = None


class Pickup(_Record, kw_only=True, frozen=True, gc=False):
    date: Date
    hauler: Id | None = None
    gallons: Depth | None = None


class Employee(_Record, kw_only=True, frozen=True, gc=False):
    id: Id
    name: str | None = None
    hired_on: Date
    left_on: Date | None = None
    kitchen_duties: bool = True
    contractor: bool = False


class Attendee(_Record, kw_only=True, frozen=True, gc=False):
    employee: Id
    signed: bool = True


class Training(_Record, kw_only=True, frozen=True, gc=False):
    id: Id
    date: Date
    attendees: list[Attendee] = []


class Measurement(Reading, kw_only=True, frozen=True, gc=False):
    device: Id


class Answer(_Record, kw_only=True, frozen=True, gc=False):
    item: str
    compliant: bool
    device: Id | None = None
    note: str | None = None


class Inspection(_Record, kw_only=True, frozen=True, gc=False):
    id: Id
    date: Date
    measurements: list[Measurement] = []
    answers: list[Answer] = []


class Incident(_Record, kw_only=True, frozen=True, gc=False):
    id: Id
    date: Date
    kind: str
    attributed: bool = False
    gallons: Depth | None = None
    written_report_on: Date | None = None
    clearance_inspection_on: Date | None = None


class Sample(_Record, kw_only=True, frozen=True, gc=False):
    id: Id
    date: Date
    device: Id | None = None
    parameter: Id
    value: Depth
    unit: Id
    method: str | None = None


class RawAction(msgspec.Struct, frozen=True, gc=False):
    """An enforcement action before its fields are read against the pack: its id, its
    type, and the rest of its fields (`model_extra`, as the schema names them)."""

    id: str
    type: str
    model_extra: dict[str, Any]


class History(_Record, kw_only=True, frozen=True, gc=False):
    starts: Date
    grace_days: Frequency


class Report(_Record, kw_only=True, frozen=True, gc=False):
    id: Id
    kind: Id
    due_on: Date
    submitted_on: Date | None = None


class CaseFileModel(_Record, kw_only=True, frozen=True, gc=False):
    jurisdiction: str
    as_of: Date | None = None
    establishment: Establishment
    permit: Permit | None = None
    devices: list[Device] = []
    haulers: list[Hauler] = []
    services: list[Service] = []
    yellow_grease_pickups: list[Pickup] = []
    employees: list[Employee] = []
    trainings: list[Training] = []
    inspections: list[Inspection] = []
    incidents: list[Incident] = []
    samples: list[Sample] = []
    enforcement: list[Any] = []  # dicts, read by `casefile._raw_actions`
    history: History | None = None
    reports: list[Report] = []


STRUCTS: dict[str, type[msgspec.Struct]] = {
    cls.__name__: cls
    for cls in (
        Operator,
        Change,
        Establishment,
        Limit,
        Permit,
        ApprovedException,
        Device,
        Hauler,
        Reading,
        Service,
        Pickup,
        Employee,
        Attendee,
        Training,
        Measurement,
        Answer,
        Inspection,
        Incident,
        Sample,
        History,
        Report,
        CaseFileModel,
    )
}


def convert(data: dict[Any, Any]) -> CaseFileModel:
    """The case file as Structs; raises msgspec.ValidationError on anything it does not
    accept (the caller then asks the schema)."""
    return msgspec.convert(data, CaseFileModel)


def from_schema(value: Any) -> Any:
    """A pydantic model of the schema (or a list or dict of them) as the Structs above.
    Struct constructors do not re-check constraints, so this copies values as they are."""
    if isinstance(value, list):
        return [from_schema(v) for v in value]
    if isinstance(value, dict):
        return {k: from_schema(v) for k, v in value.items()}
    name = type(value).__name__
    if name == "RawAction":
        return value
    cls = STRUCTS.get(name) if hasattr(type(value), "model_fields") else None
    if cls is None:
        return value
    return cls(**{f: from_schema(getattr(value, f)) for f in cls.__struct_fields__})


class Milestone(msgspec.Struct, frozen=True, gc=False):
    id: str
    due: Date
    met_on: Date | None = None


class Action(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """An enforcement action with its fields typed by the pack's action spec."""

    id: str
    type: str
    fields: dict[str, Any]
    milestones: tuple[Milestone, ...] = ()

    def get(self, name: str) -> Any:
        return self.fields.get(name)

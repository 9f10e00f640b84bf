"""Onboarding one spreadsheet of one kind of record into an agency, through the registry's own
services (the checks and audit rows of the pages).

The whole file is read in one transaction, each row in a savepoint of its own; every row's
problem is collected with its row and column. A dry run, or a file with any problem, is
rolled back at the end, so it stores nothing and says what would have been created, updated
or left as it was. A record is found again by the agency's own identifiers (the codes), so
importing the same file twice changes nothing the second time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction

from fogkeeper.audit.services import audit_record
from fogkeeper.registry.devices import device_update
from fogkeeper.registry.haulers import hauler_update
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, GreaseControlDevice, Hauler
from fogkeeper.registry.services import (
    ESTABLISHMENT_FIELDS,
    device_install,
    establishment_close,
    establishment_register,
    establishment_update,
    hauler_register,
)
from fogkeeper.rules.packs import default_registry

from .kinds import DEVICES, ESTABLISHMENTS, HAULERS, KINDS, Kind
from .sheets import Sheet, SheetError, read_sheet

CREATED, UPDATED, UNCHANGED = "created", "updated", "unchanged"


@dataclass(frozen=True)
class RowProblem:
    row: int
    column: str
    reason: str

    def __str__(self) -> str:
        where = f"row {self.row}, column {self.column}" if self.column else f"row {self.row}"
        return f"{where}: {self.reason}"


@dataclass
class Outcome:
    kind: str
    file: str
    dry_run: bool
    rows: int = 0
    counts: dict[str, int] = field(default_factory=lambda: {CREATED: 0, UPDATED: 0, UNCHANGED: 0})
    problems: list[RowProblem] = field(default_factory=list)

    @property
    def stored(self) -> bool:
        return not self.dry_run and not self.problems

    def summary(self) -> str:
        verb = "would be" if not self.stored else "were"
        counts = ", ".join(f"{n:,} {verb} {what}" for what, n in self.counts.items())
        return f"{self.file}: {self.rows:,} rows of {self.kind}; {counts}"


@dataclass(frozen=True)
class _Context:
    agency: Agency
    pack: Any
    today: date
    actor: Any


class OnboardingError(Exception):
    """The file was refused as a whole (its kind, its columns, its form); nothing was read."""


def onboard(
    *,
    agency: Agency,
    kind: str,
    data: bytes,
    name: str,
    today: date,
    dry_run: bool,
    actor=None,
    progress: Callable[[int, int], None] | None = None,
) -> Outcome:
    """Read the file `data` (named `name`, CSV or XLSX) as records of `kind` for `agency`;
    `progress(rows done, rows)` is told about every hundredth of the rows."""
    if kind not in KINDS:
        raise OnboardingError(f"unknown kind of record {kind!r} (known: {', '.join(KINDS)})")
    spec = KINDS[kind]
    try:
        sheet = read_sheet(data, name)
    except SheetError as e:
        raise OnboardingError(str(e)) from None
    _check_columns(spec, sheet)
    context = _Context(agency, default_registry().get(agency.pack), today, actor)
    outcome = Outcome(kind=kind, file=name, dry_run=dry_run, rows=len(sheet.rows))
    with transaction.atomic():
        _import_rows(spec, sheet, context, outcome, progress)
        if outcome.stored:
            audit_record(
                action="onboarding.import", obj=agency, actor=actor, agency=agency,
                after={"file": name, "kind": kind, "rows": outcome.rows, **outcome.counts},
                reason=f"onboarding of {name}",
            )  # fmt: skip
        else:
            transaction.set_rollback(True)
    return outcome


def _check_columns(spec: Kind, sheet: Sheet) -> None:
    known = {c.name for c in spec.columns}
    unknown = [c for c in sheet.columns if c not in known]
    missing = [c.name for c in spec.columns if c.required and c.name not in sheet.columns]
    repeated = sorted({c for c in sheet.columns if sheet.columns.count(c) > 1})
    problems = []
    if unknown:
        problems.append(f"unknown column(s): {', '.join(unknown)}")
    if missing:
        problems.append(f"missing required column(s): {', '.join(missing)}")
    if repeated:
        problems.append(f"column(s) named twice: {', '.join(repeated)}")
    if problems:
        columns = ", ".join(c.name for c in spec.columns)
        raise OnboardingError(
            f"{sheet.name}: {'; '.join(problems)} (the columns of {spec.name}: {columns})"
        )


def _import_rows(spec: Kind, sheet: Sheet, context: _Context, outcome: Outcome, progress) -> None:
    first_row: dict[tuple, int] = {}
    step = max(1, len(sheet.rows) // 100)
    for index, cells in enumerate(sheet.rows):
        if progress is not None and index % step == 0:
            progress(index, len(sheet.rows))
        number = sheet.row_number(index)
        values, problems = _read_row(spec, cells, context, number)
        key = tuple(cells.get(c, "") for c in spec.key)
        if all(key) and key in first_row:
            problems.append(
                RowProblem(number, spec.key[-1], f"{'/'.join(key)} is also in row {first_row[key]}")
            )
        first_row.setdefault(key, number)
        if problems:
            outcome.problems.extend(problems)
            continue
        try:
            with transaction.atomic():
                outcome.counts[_STORE[spec.name](values, context)] += 1
        except ValidationError as e:
            outcome.problems.extend(_row_problems(e, number))


def _read_row(spec: Kind, cells: dict[str, str], context: _Context, number: int):
    values, problems = {}, []
    for column in spec.columns:
        text = cells.get(column.name, "").strip()
        if not text and column.required:
            problems.append(RowProblem(number, column.name, "required"))
            continue
        value, problem = column.read(text, context)
        if problem:
            problems.append(RowProblem(number, column.name, problem))
        else:
            values[column.name] = value
    return values, problems


def _row_problems(error: ValidationError, number: int) -> list[RowProblem]:
    if not hasattr(error, "error_dict"):
        return [RowProblem(number, "", " ".join(error.messages))]
    return [
        RowProblem(number, "" if column == NON_FIELD_ERRORS else column, " ".join(messages))
        for column, messages in error.message_dict.items()
    ]


# -- one row of each kind: created, updated or unchanged -----------------------------------


def _establishment(values: dict, context: _Context) -> str:
    agency = context.agency
    existing = FoodServiceEstablishment.objects.filter(agency=agency, code=values["code"]).first()
    closed_on = values.pop("closed_on", None)
    operator, since = values.pop("operator_name"), values.pop("operator_since", None)
    fields = {k: v for k, v in values.items() if k in ESTABLISHMENT_FIELDS and v is not None}
    fields["category"] = fields.get("category") or context.pack.default_category
    if existing is None:
        fse = establishment_register(
            agency=agency, code=values["code"], operator=operator, operator_since=since,
            today=context.today, actor=context.actor, **fields,
        )  # fmt: skip
        if closed_on is not None:
            establishment_close(
                establishment=fse, closed_on=closed_on, today=context.today, actor=context.actor
            )
        return CREATED
    changed = establishment_update(
        establishment=existing, today=context.today, actor=context.actor, **fields
    )
    if closed_on is not None and existing.closed_on != closed_on:
        establishment_close(
            establishment=existing, closed_on=closed_on, today=context.today, actor=context.actor
        )
        changed = True
    return UPDATED if changed else UNCHANGED


def _hauler(values: dict, context: _Context) -> str:
    existing = Hauler.objects.filter(agency=context.agency, code=values["code"]).first()
    fields = {
        "name": values["name"],
        "licence_number": values.get("licence_number") or "",
        "licence_expires_on": values.get("licence_expires_on"),
        "licensed": values.get("licensed", True),
    }
    if existing is None:
        hauler_register(agency=context.agency, code=values["code"], actor=context.actor, **fields)
        return CREATED
    if all(getattr(existing, k) == v for k, v in fields.items()):
        return UNCHANGED
    hauler_update(hauler=existing, actor=context.actor, reason="onboarding import", **fields)
    return UPDATED


_DESIGN = ("location", "capacity_gallons", "design_depth_inches", "compartments",
           "manhole_diameter_inches", "service_frequency_days")  # fmt: skip


def _device(values: dict, context: _Context) -> str:
    code = values["establishment_code"]
    fse = FoodServiceEstablishment.objects.filter(agency=context.agency, code=code).first()
    if fse is None:
        raise ValidationError({"establishment_code": f"no establishment {code!r} in this agency"})
    existing = GreaseControlDevice.objects.filter(establishment=fse, code=values["code"]).first()
    design = {k: values.get(k) for k in _DESIGN}
    design["location"] = design["location"] or ""
    if existing is None:
        device_install(
            establishment=fse, code=values["code"], kind=values["kind"],
            installed_on=values["installed_on"], actor=context.actor, **design,
        )  # fmt: skip
        return CREATED
    same = existing.kind == values["kind"] and existing.installed_on == values["installed_on"]
    if same and all(getattr(existing, k) == v for k, v in design.items()):
        return UNCHANGED
    frequency = design.pop("service_frequency_days")
    if frequency != existing.service_frequency_days:
        raise ValidationError({"service_frequency_days": (
            f"{frequency or 'blank'} here, {existing.service_frequency_days or 'blank'} on the "
            "device: a frequency is changed on the device's page, with its reason"
        )})  # fmt: skip
    device_update(
        device=existing, kind=values["kind"], installed_on=values["installed_on"],
        today=context.today, actor=context.actor, reason="onboarding import", **design,
    )  # fmt: skip
    return UPDATED


_STORE = {ESTABLISHMENTS.name: _establishment, HAULERS.name: _hauler, DEVICES.name: _device}

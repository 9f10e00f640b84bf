"""A row of an onboarding file as its kind's `build` sees it: the values read from its cells,
the problems found so far (by row and column), and the agency's records it may refer to,
read once per file in a few queries (`Lookups`) rather than once per row."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cached_property
from typing import Any, NamedTuple

# Past this many establishments in a file, the records referred to (and those already stored
# under its keys) are read for the whole agency rather than for the file's establishments by
# their codes: a city's 25,000 codes are still listed.
CODES_LISTED = 50_000
MANIFESTS_A_QUERY = 1_000


@dataclass(frozen=True)
class RowProblem:
    row: int
    column: str
    reason: str

    def __str__(self) -> str:
        where = f"row {self.row}, column {self.column}" if self.column else f"row {self.row}"
        return f"{where}: {self.reason}"


@dataclass(frozen=True)
class Context:
    agency: Any
    pack: Any
    today: date
    actor: Any


class Establishment(NamedTuple):
    pk: int
    opened_on: date
    closed_on: date | None


class Device(NamedTuple):
    pk: int
    establishment: int
    installed_on: date
    removed_on: date | None
    frequency: int | None
    depth: Decimal | None = None  # its design depth, inches


class Dated(NamedTuple):
    """An employee (hired, left), a training or an inspection (its date, None)."""

    pk: int
    start: date
    end: date | None


class Lookups:
    """The agency's records a file's rows refer to, each kind read on first use: by code, or
    by (establishment code, code) for what belongs to an establishment."""

    def __init__(self, agency, sheet):
        self.agency, self.sheet = agency, sheet
        codes = None
        if "establishment_code" in sheet.columns:
            codes = set(sheet.column("establishment_code"))
        self.codes = codes if codes is not None and len(codes) <= CODES_LISTED else None
        self.visits: dict[tuple[int, str], tuple[int, tuple]] = {}  # a file's manifests

    def _of(self, model, path: str = "establishment__"):
        from django.db.models import Q

        query = model.objects.filter(**{f"{path}agency": self.agency})
        if self.codes is not None and path:
            query = query.filter(Q(**{f"{path}code__in": self.codes}))
        return query

    @cached_property
    def establishments(self) -> dict[str, Establishment]:
        from fogkeeper.registry.models import FoodServiceEstablishment

        rows = self._of(FoodServiceEstablishment, "").values_list(
            "code", "pk", "opened_on", "closed_on"
        )
        if self.codes is not None:
            rows = rows.filter(code__in=self.codes)
        return {code: Establishment(*rest) for code, *rest in rows}

    @cached_property
    def operators(self) -> dict[int, tuple[str, date]]:
        """The operator on record of each establishment: the tenure begun last."""
        from fogkeeper.registry.models import OperatorTenure

        rows = (
            self._of(OperatorTenure)
            .order_by("establishment_id", "since", "pk")
            .values_list("establishment_id", "operator__name", "since")
        )
        return {pk: (name, since) for pk, name, since in rows}

    @cached_property
    def devices(self) -> dict[tuple[str, str], Device]:
        from fogkeeper.registry.models import GreaseControlDevice

        rows = self._of(GreaseControlDevice).values_list(
            "establishment__code",
            "code",
            "pk",
            "establishment_id",
            "installed_on",
            "removed_on",
            "service_frequency_days",
            "design_depth_inches",
        )
        return {(fse, code): Device(*rest) for fse, code, *rest in rows}

    @cached_property
    def haulers(self) -> dict[str, int]:
        from fogkeeper.registry.models import Hauler

        return dict(Hauler.objects.filter(agency=self.agency).values_list("code", "pk"))

    def _dated(self, model, start: str, end: str | None) -> dict[tuple[str, str], Dated]:
        fields = ("establishment__code", "code", "pk", start) + ((end,) if end else ())
        return {
            (fse, code): Dated(pk, first, *(rest or [None]))
            for fse, code, pk, first, *rest in self._of(model).values_list(*fields)
        }

    @cached_property
    def employees(self) -> dict[tuple[str, str], Dated]:
        from fogkeeper.training.models import Employee

        return self._dated(Employee, "hired_on", "left_on")

    @cached_property
    def trainings(self) -> dict[tuple[str, str], Dated]:
        from fogkeeper.training.models import Training

        return self._dated(Training, "date", None)

    @cached_property
    def inspections(self) -> dict[tuple[str, str], Dated]:
        from fogkeeper.inspections.models import Inspection

        return self._dated(Inspection, "date", None)

    @cached_property
    def stored_manifests(self) -> dict[tuple[int, str], list[tuple[int, tuple]]]:
        """The pump-outs on record under the file's manifests: (hauler, manifest) -> [(device,
        (establishment, day))], read a thousand manifests a query."""
        from fogkeeper.maintenance.models import Service

        if not Service.objects.filter(hauler__agency=self.agency).exists():
            return {}
        haulers, manifests = self.sheet.column("hauler_code"), self.sheet.column("manifest_number")
        pairs = zip(haulers, manifests, strict=True)
        wanted = sorted({(self.haulers[h], m) for h, m in pairs if h in self.haulers})
        stored: dict[tuple[int, str], list] = {}
        for start in range(0, len(wanted), MANIFESTS_A_QUERY):
            part = wanted[start : start + MANIFESTS_A_QUERY]
            for hauler, manifest, device, fse, day in Service.objects.filter(
                hauler_id__in={h for h, _ in part}, manifest_number__in={m for _, m in part}
            ).values_list(
                "hauler_id", "manifest_number", "device_id", "device__establishment_id", "date"
            ):
                stored.setdefault((hauler, manifest), []).append((device, (fse, day)))
        return stored


class Notes:
    """What the rows of a file were read with that is no problem, to be told in the dry run
    as a warning: how many rows each note is of, and the first of them as an example."""

    def __init__(self):
        self.rows: dict[str, int] = {}
        self.first: dict[str, tuple[int, str]] = {}

    def add(self, what: str, row: int, example: str) -> None:
        self.rows[what] = self.rows.get(what, 0) + 1
        self.first.setdefault(what, (row, example))


@dataclass
class Checked:
    """A file's rows that passed their checks, as its kind's warnings read them."""

    context: Context
    lookups: Any
    notes: Notes
    rows: list[tuple[int, dict, dict]]  # (row number, values read, the record's fields)


class Row:
    """One row: `values` holds the cells that are not blank, as read."""

    __slots__ = ("number", "values", "problems", "lookups", "context", "notes")

    def __init__(self, number: int, values: dict, problems: list, lookups, context, notes=None):
        self.number, self.values, self.problems = number, values, problems
        self.lookups, self.context = lookups, context
        self.notes = notes if notes is not None else Notes()

    def note(self, what: str, example: str) -> None:
        self.notes.add(what, self.number, example)

    def problem(self, column: str, reason: str) -> None:
        self.problems.append(RowProblem(self.number, column, reason))

    def not_before(self, column: str, earlier: date | None, what: str) -> None:
        value = self.values.get(column)
        if value is not None and earlier is not None and value < earlier:
            self.problem(column, f"{value} is before {what} ({earlier})")

    def establishment(self, column: str = "establishment_code") -> Establishment | None:
        code = self.values.get(column)
        found = self.lookups.establishments.get(code)
        if code is not None and found is None:
            self.problem(column, f"no establishment {code!r} in this agency")
        return found

    def _of_establishment(self, table: dict, column: str, what: str):
        """The establishment's record named in `column` (None when blank or unknown)."""
        fse, code = self.values.get("establishment_code"), self.values.get(column)
        if fse is None or code is None:
            return None
        found = table.get((fse, code))
        if found is None and fse in self.lookups.establishments:
            self.problem(column, f"no {what} {code!r} at establishment {fse!r}")
        return found

    def device(self, column: str = "device_code") -> Device | None:
        return self._of_establishment(self.lookups.devices, column, "device")

    def employee(self, column: str = "employee_code") -> Dated | None:
        return self._of_establishment(self.lookups.employees, column, "employee")

    def training(self, column: str = "training_code") -> Dated | None:
        return self._of_establishment(self.lookups.trainings, column, "training")

    def inspection(self, column: str = "inspection_code") -> Dated | None:
        return self._of_establishment(self.lookups.inspections, column, "inspection")

    def hauler(self, column: str = "hauler_code") -> int | None:
        code = self.values.get(column)
        found = self.lookups.haulers.get(code)
        if code is not None and found is None:
            self.problem(column, f"no hauler {code!r} in this agency")
        return found

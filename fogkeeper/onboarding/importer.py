"""Onboarding one spreadsheet of one kind of record into an agency.

The whole file is checked in memory first: every cell is read (a value read once per file,
however many rows repeat it), the records it refers to (establishments by code, devices by
establishment and code, haulers...) and the records already stored under the file's keys are
read in a few queries, and every row's problem is collected with its row and column. A dry
run, or a file with any problem, stores nothing and says what would have been created,
updated or left as it was. A clean file is then written in bulk in one transaction (new rows
by COPY on PostgreSQL, changed ones by bulk_update), with one audit row for the file (who
imported what, the counts) and one for each record it changed (before and after). A record is
found again by the agency's own identifiers (the kind's key), so importing the same file
twice changes nothing the second time.

A dry run takes the very path of the import, the writing included, and rolls it back: what
the database itself refuses (a NUL in a text, which PostgreSQL cannot store) is found by the
dry run, never first by the confirmed import. The cells such a refusal would come from are
refused first by the checks, naming their row and column (kinds.Column.cell).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db import DatabaseError, connection, transaction

from fogkeeper.audit.models import AuditEvent
from fogkeeper.audit.services import audit_record, plain
from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.reevaluation import reevaluate_ids_on_commit
from fogkeeper.registry.models import Agency
from fogkeeper.rules.packs import default_registry
from fogkeeper.statistics import analyze_tables

from . import bulk
from .catalog import KINDS
from .kinds import Column, Kind
from .rows import Checked, Context, Lookups, Notes, Row, RowProblem
from .sheets import Sheet, SheetError, read_sheet

log = logging.getLogger(__name__)
CREATED, UPDATED, UNCHANGED = "created", "updated", "unchanged"
ANALYZED_FROM = 10_000  # new rows past which the table's planner statistics are gathered again

__all__ = ["CREATED", "UPDATED", "UNCHANGED", "Outcome", "OnboardingError", "RowProblem", "onboard"]


@dataclass
class Outcome:
    kind: str
    file: str
    dry_run: bool
    rows: int = 0
    counts: dict[str, int] = field(default_factory=lambda: {CREATED: 0, UPDATED: 0, UNCHANGED: 0})
    problems: list[RowProblem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # read, and told: never a refusal

    @property
    def stored(self) -> bool:
        return not self.dry_run and not self.problems

    def summary(self) -> str:
        verb = "would be" if not self.stored else "were"
        counts = ", ".join(f"{n:,} {verb} {what}" for what, n in self.counts.items())
        return f"{self.file}: {self.rows:,} rows of {self.kind}; {counts}"


@dataclass
class _Plan:
    """What a clean file would write: new records, and (pk, new fields, old fields) of the
    changed ones."""

    new: list[dict] = field(default_factory=list)
    changed: list[tuple[int, dict, dict]] = field(default_factory=list)


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
    context = Context(agency, default_registry().get(agency.pack), today, actor)
    outcome = Outcome(kind=kind, file=name, dry_run=dry_run, rows=len(sheet.rows))
    try:
        with transaction.atomic():
            plan = _check_rows(spec, sheet, context, outcome, progress)
            if not outcome.problems:
                _store(spec, plan, context)
                audit_record(
                    action="onboarding.import",
                    obj=agency,
                    actor=actor,
                    agency=agency,
                    after={"file": name, "kind": kind, "rows": outcome.rows, **outcome.counts},
                    reason=f"onboarding of {name}",
                )
                if dry_run:  # the same path as the import, all of it undone
                    transaction.set_rollback(True)
                else:
                    reevaluate_ids_on_commit(agency.pk, _evaluated(spec, plan), queued=True)
    except DatabaseError:
        log.exception("onboarding of %s refused by the database", name)
        raise OnboardingError(
            f"{name}: every row passed its checks, yet the database refused to store them "
            "(the server's log says why)"
        ) from None
    if outcome.stored and len(plan.new) >= ANALYZED_FROM:
        analyze_tables(connection, models=[spec.get_model(), *_also_written(spec)])
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


def _check_rows(spec: Kind, sheet: Sheet, context: Context, outcome: Outcome, progress) -> _Plan:
    lookups = Lookups(context.agency, sheet)
    stored = _stored(spec, context.agency, lookups)
    read = _reader(spec, sheet, context)
    plan, counts, notes = _Plan(), outcome.counts, Notes()
    first_row: dict[tuple[Any, ...], int] = {}
    checked: list[tuple[int, dict, dict]] = []  # (row, values, record) of the clean rows
    # the key's columns kept in the record's own fields (a code), which a new record needs
    plain = [(c, spec.column(c).source) for c in spec.key if "__" not in spec.column(c).source]
    total = len(sheet.rows)
    step = max(1, total // 100)
    for index, cells in enumerate(sheet.rows):
        if progress is not None and index % step == 0:
            progress(index, total)
        number = Sheet.row_number(index)
        values, problems = read(cells, number)
        if not problems:
            key = tuple(values.get(c, "") for c in spec.key)
            first = first_row.setdefault(key, number)
            if first != number:
                shown = "/".join(str(k) for k in key if k != "")
                problems.append(RowProblem(number, spec.key[-1], f"{shown} is also in row {first}"))
        row = Row(number, values, problems, lookups, context, notes)
        record = None if problems else spec.build(row)
        if problems or record is None:
            outcome.problems.extend(problems)
            continue
        if spec.warn is not None:
            checked.append((number, values, record))
        found = stored.get(key)
        if found is None:
            record.update((source, values.get(c, "")) for c, source in plain)
            plan.new.append(record)
            counts[CREATED] += 1
            continue
        pk, old = found
        new = {f: v for f, v in record.items() if f[0] != "+" and old.get(f, v) != v}
        if new:
            plan.changed.append((pk, new, {f: old[f] for f in new if f in old}))
        counts[UPDATED if new else UNCHANGED] += 1
    if progress is not None:
        progress(total, total)
    if spec.warn is not None:
        outcome.warnings = spec.warn(Checked(context, lookups, notes, checked))
    return plan


def _reader(spec: Kind, sheet: Sheet, context: Context):
    """Reads a row's cells into (values, problems); each column remembers what it read of a
    text (the same day or number recurs on thousands of rows)."""
    columns: list[tuple[int, str, bool, Any, dict[Any, Any]]] = [
        (sheet.columns.index(c.name), c.name, c.required, _read(c, context), {})
        for c in spec.columns
        if c.name in sheet.columns
    ]

    def read(cells: list[str], number: int) -> tuple[dict, list]:
        values, problems = {}, []
        for index, name, required, reader, memo in columns:
            text = cells[index]
            if not text:
                if required:
                    problems.append(RowProblem(number, name, "required"))
                continue
            found = memo.get(text)
            if found is None:
                found = memo[text] = reader(text)
            if found[1]:
                problems.append(RowProblem(number, name, found[1]))
            else:
                values[name] = found[0]
        return values, problems

    return read


def _read(column: Column, context: Context) -> Callable[[str], tuple[Any, str]]:
    """A cell of `column` as its kind reads it, after the rule every cell is read by."""

    def read(text: str) -> tuple[Any, str]:
        text, problem = column.cell(text)
        return (None, problem) if problem else column.read(text, context)

    return read


def _stored(spec: Kind, agency: Agency, lookups: Lookups) -> dict[tuple, tuple[int, dict]]:
    """The records already stored under the keys the file may hold: key -> (pk, fields)."""
    model = spec.get_model()
    names = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
    query = model.objects.filter(**{spec.agency: agency})
    if lookups.codes is not None and "establishment_code" in spec.key:
        query = query.filter(**{f"{spec.column('establishment_code').source}__in": lookups.codes})
    width = len(spec.key)
    stored = {}
    for pk, *values in query.values_list("pk", *spec.stored_key, *names).iterator(5000):
        key = tuple("" if v is None else v for v in values[:width])
        stored[key] = (pk, dict(zip(names, values[width:], strict=True)))
    return stored


def _store(spec: Kind, plan: _Plan, context: Context) -> None:
    model = spec.get_model()
    own = {"agency_id": context.agency.pk} if spec.agency == "agency" else {}
    new = [{**spec.fixed, **own, **record} for record in plan.new]
    if spec.write is not None:
        spec.write(new, context)
    else:
        bulk.insert(model, new)
    if plan.changed:
        bulk.update(model, [(pk, fields) for pk, fields, _ in plan.changed])
        _audit_changes(spec, plan.changed, context)


def _audit_changes(spec: Kind, changed: list[tuple[int, dict, dict]], context: Context) -> None:
    """One audit row for each record the file changed, its fields before and after."""
    label = spec.get_model()._meta.label_lower
    actor = context.actor if getattr(context.actor, "is_authenticated", False) else None
    events = [
        AuditEvent(
            action="onboarding.update",
            object_type=label,
            object_id=str(pk),
            actor=actor,
            agency=context.agency,
            reason="onboarding import",
            establishment_id=pk if spec.name == "establishments" else old.get("establishment_id"),
            before={k: plain(v) for k, v in old.items()},
            after={k: plain(v) for k, v in new.items()},
        )
        for pk, new, old in changed
    ]
    AuditEvent.objects.bulk_create(events, batch_size=bulk.BATCH)


def _evaluated(spec: Kind, plan: _Plan) -> set[int]:
    """The establishments already evaluated whose case file the import changed: those it
    changed, those it added records to, the customers of the haulers it changed. One never
    evaluated (a new one, or one of an agency being onboarded) is left to the next sweep."""
    ids = _written(spec, plan)
    evaluated = ComplianceStatus.objects.filter(establishment_id__in=ids)
    return set(evaluated.values_list("establishment_id", flat=True))


def _written(spec: Kind, plan: _Plan) -> set[int]:
    changed = [pk for pk, _, _ in plan.changed]
    if spec.name == "establishments":
        return set(changed)
    if spec.name == "haulers":
        from fogkeeper.registry.models import ServiceContract

        contracts = ServiceContract.objects.filter(hauler_id__in=changed)
        return set(contracts.values_list("establishment_id", flat=True))
    model = spec.get_model()
    path = _establishment_path(spec)
    if path is None:
        return set()
    ids = set(model.objects.filter(pk__in=changed).values_list(path, flat=True))
    first, _, rest = path.partition("__")
    held = {r[f"{first}_id"] for r in plan.new if r.get(f"{first}_id") is not None}
    if not rest:
        return ids | held
    related = model._meta.get_field(first).related_model.objects.filter(pk__in=held)
    return ids | set(related.values_list(rest, flat=True))


def _establishment_path(spec: Kind) -> str | None:
    """The ORM path from a record of the kind to its establishment (None: it has none)."""
    model = spec.get_model()
    if "establishment" in {f.name for f in model._meta.get_fields()}:
        return "establishment"
    path = spec.agency.removesuffix("__agency")
    return path if path.endswith("establishment") else None


def _also_written(spec: Kind) -> list[Any]:
    if spec.name != "establishments":
        return []
    from fogkeeper.registry.models import Operator, OperatorTenure

    return [Operator, OperatorTenure]

"""The sweep: every establishment of an agency evaluated on one date, its report stored.

A batch of establishments at a time: their case files are read in a fixed number of queries
straight into the engine's records (casefiles/as_records.py; the few out of the ordinary as
the dicts of casefiles/as_json.py, for parse_case to read or refuse), each is evaluated by the
engine, and what the reports say is compared with what the database holds, so that only rows
that changed are written, in a fixed number of queries too (on PostgreSQL: new rows by COPY,
changed rows by COPY into a temporary table and one UPDATE). Each batch is loaded, evaluated
and stored in its own transaction, holding its establishments' rows from before the load:
two stores of one establishment (a sweep's batch and a re-evaluation after a write) take
turns rather than both create a finding, and the later reads what the earlier stored.
Batches of other establishments run alongside.

What is stored (models.py):

- `ComplianceStatus`, one per establishment: the report's status, schedule, deadlines and
  accruals; `next_due` is the earliest due date of the schedule (overdue ones included),
  `next_inspection_due` the earliest of its inspections. A row whose content is unchanged
  only has its `as_of` moved to the new date (one UPDATE for the batch, none when the date
  is the same).
- `ScheduleItem`, one per obligation and due date of the schedule, rewritten (deleted and
  inserted) for the establishments whose schedule changed. It and `Finding` carry the
  establishment's agency, for the pages to count an agency's rows without a join.
- `ComplianceRate`, at the end of an agency's sweep: the compliance rate on each of the
  last twelve month ends up to its date, from the findings as they now are (rates.py).
- `Finding`, one row per (establishment, rule, subject, since): created the first time it
  is reported (`first_seen_on` = `last_seen_on` = as_of); rewritten only when the report
  says something else about it (`last_seen_on` then moves to as_of); closed when the report
  closes it (`closed_on` is its `resolved_on`) or stops listing it (`closed_on` is the
  sweep's as_of, `last_seen_on` the as_of of the sweep before). A closed finding that the
  report says is open again is reopened. An unchanged finding is not written at all, so an
  open finding has been seen by every sweep up to its establishment's `ComplianceStatus.as_of`
  even when its `last_seen_on` is older.
- Sweeping an earlier date than before redoes the history from that date: a finding first
  seen after it that the report does not list is deleted (it had not happened yet), and the
  first and last sightings of the others are brought back to the date. The findings stored
  are then those of that date; sweeping the later date again brings those back.

An establishment whose case file fails validation is listed in `SweepRun.errors` with its
problems; its status and findings are left as they were, and the sweep goes on.
"""

from __future__ import annotations

import gc
import json
import time
from collections import defaultdict
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db import connection, transaction
from django.db.models import JSONField

from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from fogkeeper.rules import CaseFile, CaseFileError, Report, evaluate, parse_case

from .casefiles.as_records import load_case_files
from .models import ComplianceStatus, Finding, ScheduleItem, SweepRun

# What the engine says about a finding; the rest of a row is its identity and history.
FINDING_FIELDS = (
    "severity",
    "due",
    "resolved_on",
    "open",
    "citation",
    "message",
    "evidence",
    "closed_on",
)
HISTORY_FIELDS = ("first_seen_on", "last_seen_on")
OPEN, CLOSED_ON = FINDING_FIELDS.index("open"), FINDING_FIELDS.index("closed_on")
STATUS_FIELDS = (
    "status",
    "status_citation",
    "open_violations",
    "schedule",
    "deadlines",
    "accruals",
    "next_due",
    "next_inspection_due",
)
SCHEDULE = STATUS_FIELDS.index("schedule")
SCHEDULE_ROW = ("agency", "establishment", "obligation", "due")
FINDING_ROW = ("establishment", "rule", "subject", "since", *FINDING_FIELDS, *HISTORY_FIELDS)
# Rows a query at most, where Django's bulk_create and bulk_update write them (not PostgreSQL).
WRITE_BATCH = 500

Progress = Callable[[int, int], None]


@dataclass
class SweepResult:
    """What a sweep did. `establishments` counts those swept, the ones in `errors` included;
    `opened`: findings newly open (new or reopened); `closed`: findings that stopped being
    open (or were first recorded already closed); `changed`: findings otherwise rewritten;
    `timings`: seconds spent loading case files, evaluating them and storing the reports;
    `queries`: database queries run."""

    run: SweepRun
    establishments: int = 0
    opened: int = 0
    closed: int = 0
    changed: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    timings: dict[str, float] = field(
        default_factory=lambda: {"load": 0.0, "evaluate": 0.0, "store": 0.0}
    )
    queries: int = 0


@contextmanager
def counting_queries(result: SweepResult):
    def count(execute, sql, params, many, context):
        result.queries += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        yield


@contextmanager
def without_gc():
    """The sweep makes millions of short-lived objects and no reference cycles worth
    collecting; the collector would only walk them again and again. What was there before
    is frozen as it is, not collected first: a full collection of a worker's heap took
    longer than a small batch, and what it would have freed is collected after unfreezing."""
    enabled = gc.isenabled()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


def sweep_ids(agency: Agency, ids: list[int], as_of: date, result: SweepResult) -> None:
    """Evaluate the establishments `ids` and store their reports, adding to `result`."""
    started = time.perf_counter()
    with transaction.atomic():
        # in the order of their ids, so that two overlapping batches cannot deadlock
        locked = FoodServiceEstablishment.objects.select_for_update(no_key=True).filter(pk__in=ids)
        list(locked.order_by("pk").values_list("pk"))
        cases = load_case_files(agency, ids, as_of)
        loaded = time.perf_counter()
        reports = _evaluate(cases, result)
        evaluated = time.perf_counter()
        _store(agency, reports, as_of, result)
    stored = time.perf_counter()
    result.establishments += len(cases)
    result.timings["load"] += loaded - started
    result.timings["evaluate"] += evaluated - loaded
    result.timings["store"] += stored - evaluated


def _evaluate(cases: dict[int, CaseFile | dict], result: SweepResult) -> dict[int, Report]:
    """Reports of the case files; a case file still a dict is read by parse_case first."""
    reports: dict[int, Report] = {}
    for est_id, case in cases.items():
        try:
            reports[est_id] = evaluate(case if isinstance(case, CaseFile) else parse_case(case))
            continue
        except CaseFileError as e:
            problems = [str(p) for p in e.problems]
        except Exception as e:  # a fault of the engine must not stop the other establishments
            problems = [f"the engine failed: {e!r}"]
        result.errors.append({"establishment": _code(case), "problems": problems})
    return reports


def _code(case: CaseFile | dict) -> str:
    if isinstance(case, CaseFile):
        return case.model.establishment.id
    return case["establishment"]["id"]


def _store(agency: Agency, reports: dict[int, Report], as_of: date, result: SweepResult) -> None:
    if not reports:
        return
    ids = list(reports)
    statuses = {
        row[0]: row[1:]
        for row in ComplianceStatus.objects.filter(establishment_id__in=ids).values_list(
            "establishment_id", "pk", "as_of", *STATUS_FIELDS
        )
    }
    # (establishment, rule, subject, since) -> (pk, FINDING_FIELDS values, first, last seen)
    stored: dict[int, dict[tuple, tuple]] = defaultdict(dict)
    for row in Finding.objects.filter(establishment_id__in=ids).values_list(
        "establishment_id", "rule", "subject", "since", "pk", *FINDING_FIELDS, *HISTORY_FIELDS
    ):
        stored[row[0]][row[1:4]] = (row[4], row[5:13], row[13], row[14])

    new_statuses: list[tuple] = []
    changed_statuses: list[tuple] = []
    moved_statuses: list[int] = []
    rescheduled: dict[int, Report] = {}
    writes = _FindingWrites()
    for est_id, report in reports.items():
        content = _status_content(report)
        previous = statuses.get(est_id)
        if previous is None:
            new_statuses.append((est_id, as_of, *content))
        elif tuple(previous[2:]) != content:
            changed_statuses.append((previous[0], as_of, *content))
        elif previous[1] != as_of:
            moved_statuses.append(previous[0])
        if previous is None or previous[2 + SCHEDULE] != content[SCHEDULE]:
            rescheduled[est_id] = report
        last_sweep = previous[1] if previous is not None else None
        _compare_findings(est_id, report, stored.pop(est_id, {}), as_of, last_sweep, result, writes)

    _insert(ComplianceStatus, ("establishment", "as_of", *STATUS_FIELDS), new_statuses, result)
    _update(ComplianceStatus, ("as_of", *STATUS_FIELDS), changed_statuses, result)
    if moved_statuses:
        ComplianceStatus.objects.filter(pk__in=moved_statuses).update(as_of=as_of)
    if rescheduled:
        if stale := [est_id for est_id in rescheduled if est_id in statuses]:
            ScheduleItem.objects.filter(establishment_id__in=stale).delete()
        items = [row for est_id, r in rescheduled.items() for row in schedule_rows(est_id, r)]
        _insert(ScheduleItem, SCHEDULE_ROW, [(agency.pk, *row) for row in items], result)
    if writes.gone:
        Finding.objects.filter(pk__in=writes.gone).delete()
    new = [(agency.pk, *row) for row in writes.new]
    _insert(Finding, ("agency", *FINDING_ROW), new, result)
    _update(Finding, (*FINDING_FIELDS, *HISTORY_FIELDS), writes.changed, result)


@dataclass
class _FindingWrites:
    new: list[tuple] = field(default_factory=list)  # FINDING_ROW
    changed: list[tuple] = field(default_factory=list)  # pk, FINDING_FIELDS, HISTORY_FIELDS
    gone: list[int] = field(default_factory=list)  # pks


def _insert(model: type[Any], fields: tuple[str, ...], rows: list[tuple], result) -> None:
    """INSERT rows of values of `fields`: COPY on PostgreSQL (Django's bulk_create spends
    most of its time adapting values), bulk_create elsewhere."""
    if not rows:
        return
    meta: Any = model._meta  # of any model the sweep writes
    if connection.vendor != "postgresql":
        names = [meta.get_field(f).attname for f in fields]
        objs = [model(**dict(zip(names, row, strict=True))) for row in rows]
        model.objects.bulk_create(objs, batch_size=WRITE_BATCH)
        return
    with connection.cursor() as cursor:
        _copy(cursor, meta.db_table, [meta.get_field(f) for f in fields], rows)
    result.queries += 1  # COPY goes around the execute wrapper


def _update(model: type[Any], fields: tuple[str, ...], rows: list[tuple], result) -> None:
    """UPDATE rows of (pk, values of `fields`): on PostgreSQL, COPY into a temporary table
    and one UPDATE ... FROM it; elsewhere bulk_update."""
    if not rows:
        return
    meta: Any = model._meta  # of any model the sweep writes
    if connection.vendor != "postgresql":
        names = [meta.get_field(f).attname for f in fields]
        objs = [model(pk=row[0], **dict(zip(names, row[1:], strict=True))) for row in rows]
        model.objects.bulk_update(objs, names, batch_size=WRITE_BATCH)
        return
    qn = connection.ops.quote_name
    table, temp = qn(meta.db_table), qn(f"sweep_{meta.db_table}")
    columns = [meta.get_field(f) for f in fields]
    selected = ", ".join(qn(c.column) for c in columns)
    pk = qn(meta.pk.column)
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE {temp} AS SELECT {pk}, {selected} FROM {table} LIMIT 0"
        )
        _copy(cursor, f"sweep_{meta.db_table}", [meta.pk, *columns], rows)
        assignments = ", ".join(f"{qn(c.column)} = s.{qn(c.column)}" for c in columns)
        cursor.execute(
            f"UPDATE {table} AS t SET {assignments} FROM {temp} AS s WHERE t.{pk} = s.{pk}"
        )
        cursor.execute(f"DROP TABLE {temp}")
    result.queries += 1


def _copy(cursor, table: str, fields: list, rows: list[tuple]) -> None:
    qn = connection.ops.quote_name
    columns = ", ".join(qn(f.column) for f in fields)
    json_at = [i for i, f in enumerate(fields) if isinstance(f, JSONField)]
    with cursor.cursor.copy(f"COPY {qn(table)} ({columns}) FROM STDIN") as copy:
        row: Any  # a tuple, or a list once its JSON is dumped
        for row in rows:
            if json_at:
                row = list(row)
                for i in json_at:
                    row[i] = json.dumps(row[i])
            copy.write_row(row)


def _status_content(report: Report) -> tuple:
    schedule = [s.to_dict() for s in report.schedule]
    return (
        report.status,
        report.status_citation or "",
        len(report.open_violations()),
        schedule,
        [d.to_dict() for d in report.deadlines],
        [a.to_dict() for a in report.accruals],
        min((s.due for s in report.schedule), default=None),
        min((s.due for s in report.schedule if is_inspection(s.obligation)), default=None),
    )


def is_inspection(obligation: str) -> bool:
    return obligation.startswith("inspection.")


def schedule_rows(est_id: int, report: Report) -> list[tuple]:
    """The ScheduleItem rows of a report: (establishment, obligation, due), once each."""
    return sorted({(est_id, s.obligation, s.due) for s in report.schedule})


def _compare_findings(
    est_id: int,
    report: Report,
    stored: dict[tuple, tuple],
    as_of: date,
    last_sweep: date | None,
    result: SweepResult,
    writes: _FindingWrites,
) -> None:
    """Sort the report's findings into new and changed rows; close or drop the stored open
    ones it no longer lists."""
    reported = set()
    for f in report.findings:
        key = (f.rule, f.subject, f.since)
        if key in reported:
            continue
        reported.add(key)
        row = stored.get(key)
        if f.open:
            closed_on = None
        elif f.resolved_on is not None:
            closed_on = f.resolved_on
        elif row is not None and row[1][CLOSED_ON] is not None:
            # closed without a date: keep the day it was first seen closed
            closed_on = row[1][CLOSED_ON]
        else:
            closed_on = as_of
        values = (
            f.severity,
            f.due,
            f.resolved_on,
            f.open,
            f.citation,
            f.message,
            f.to_dict()["evidence"],
            closed_on,
        )
        if row is None:
            writes.new.append((est_id, *key, *values, as_of, as_of))
            if f.open:
                result.opened += 1
            else:
                result.closed += 1
            continue
        pk, old, first_seen, last_seen = row
        same = old == values
        if same and first_seen <= as_of and last_seen <= as_of:
            continue
        if not same:
            was_open = old[OPEN]
            if f.open and not was_open:
                result.opened += 1
            elif was_open and not f.open:
                result.closed += 1
            else:
                result.changed += 1
            last_seen = as_of
        writes.changed.append((pk, *values, min(first_seen, as_of), min(last_seen, as_of)))
    for key, row in stored.items():
        if key in reported:
            continue
        pk, old, first_seen, last_seen = row
        if first_seen > as_of:
            writes.gone.append(pk)  # first seen after the date swept now: not there yet
            continue
        if not old[OPEN]:
            continue  # closed already
        if last_sweep is not None and last_seen <= last_sweep < as_of:
            last_seen = last_sweep  # open until now: seen by every sweep up to the last one
        closed = list(old)
        closed[OPEN], closed[CLOSED_ON] = False, as_of
        writes.changed.append((pk, *closed, first_seen, min(last_seen, as_of)))
        result.closed += 1

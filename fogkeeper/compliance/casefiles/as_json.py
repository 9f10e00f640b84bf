"""Case files (CASEFILE.md) built from the database, a batch of establishments at a time.

`build_case_files` runs the same queries whatever the size of the batch (seventeen for the
records, two for the enforcement actions and their facts, and the billing app's for invoices;
one or two more when a record refers by mistake to another establishment's device or
employee): one loader per kind of record (json_registry.py, json_history.py) reads
plain rows (`values_list`, no model instances) for every establishment of the batch at once,
and deals them out to the establishments in Python. The result is JSON-ready: dates are
`YYYY-MM-DD` strings, decimals are floats (cast in SQL), and optional fields that are null are
left out, so `json.dumps(case)` is a file `fogkeeper evaluate` reads.

What the database keeps over time is read as of the sweep's date:

- the operator is the one whose tenure began last on or before `as_of`;
- the permit is the one issued last on or before `as_of`, whatever its status (a permit
  that ended with its holder is how the engine learns of a new operator);
- a device removed on or before `as_of` is left out, with its pump-outs, its readings and
  the checklist answers about it;
- a pump-out under a dispute open on `as_of` is left out: staff doubt it happened as told.

Everything else is listed whatever its date: the engine ignores what has not happened yet
on `as_of`, and a planned change of operation must be seen before its date.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from fogkeeper.enforcement.selectors import enforcement_entries
from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from fogkeeper.submittals.selectors import report_entries

from .json_batch import _Batch, _put
from .json_history import (
    _employees,
    _incidents,
    _inspections,
    _pickups,
    _samples,
    _services,
    _trainings,
)
from .json_registry import _changes, _devices, _establishments, _haulers, _operators, _permits


def build_case_file(establishment: FoodServiceEstablishment, as_of: date) -> dict:
    """The case file of one establishment on `as_of`."""
    return build_case_files(establishment.agency, [establishment.pk], as_of)[establishment.pk]


def history_of(agency: Agency) -> dict:
    """The case file's `history`: the day the agency's pump-out records start, and its grace."""
    assert agency.history_starts is not None  # asked of an agency whose history starts
    return {"starts": agency.history_starts.isoformat(), "grace_days": agency.history_grace_days}


def build_case_files(
    agency: Agency, establishment_ids: Iterable[int], as_of: date
) -> dict[int, dict]:
    """The case files on `as_of` of the agency's establishments among `establishment_ids`,
    keyed by establishment pk, in a fixed number of queries however many there are."""
    establishments = _establishments(agency, sorted(set(establishment_ids)))
    if not establishments:
        return {}
    batch = _Batch(agency, list(establishments), as_of)
    _operators(batch, establishments)
    _changes(batch, establishments)
    records: dict[str, Any] = {
        "permit": _permits(batch),
        "devices": _devices(batch),
        "services": _services(batch),
        "yellow_grease_pickups": _pickups(batch),
    }
    haulers = _haulers(batch, records["services"], records["yellow_grease_pickups"])
    records |= {
        "employees": _employees(batch),
        "trainings": _trainings(batch),
        "inspections": _inspections(batch),
        "incidents": _incidents(batch),
        "samples": _samples(batch),
        "enforcement": enforcement_actions(agency, batch.ids, as_of),
        "reports": report_entries(agency, batch.ids, as_of),
    }
    cases: dict[int, dict] = {}
    for est_id, est in establishments.items():
        case = {"jurisdiction": agency.pack, "as_of": as_of.isoformat(), "establishment": est}
        _put(case, "permit", records["permit"].get(est_id))
        case["devices"] = records["devices"].get(est_id, [])
        case["haulers"] = sorted(
            (haulers[pk] for pk in batch.hauler_ids.get(est_id, ())), key=lambda h: h["id"]
        )
        for name in _LISTS:
            case[name] = records[name].get(est_id, [])
        if est_id in records["samples"]:
            case["samples"] = records["samples"][est_id]
        case["enforcement"] = records["enforcement"].get(est_id, [])
        if agency.history_starts is not None:
            case["history"] = history_of(agency)
        if est_id in records["reports"]:
            case["reports"] = records["reports"][est_id]
        cases[est_id] = case
    return cases


_LISTS = ("services", "yellow_grease_pickups", "employees", "trainings", "inspections", "incidents")


def enforcement_actions(agency: Agency, ids: list[int], as_of: date) -> dict[int, list]:
    """The actions taken with their later facts (two queries); then, when the billing app is
    installed, its invoices and the penalties paid through it."""
    enforcement = enforcement_entries(agency, ids)
    try:
        from fogkeeper.billing import casefiles as billing
    except ModuleNotFoundError as e:
        if e.name not in ("fogkeeper.billing", "fogkeeper.billing.casefiles"):
            raise
        return enforcement
    invoices, penalties_paid = billing.money_actions(ids, as_of)
    wanted = set(ids)
    for est_id, items in invoices.items():
        if est_id in wanted:
            enforcement[est_id].extend(items)
    for est_id, paid in penalties_paid.items():
        for action in enforcement.get(est_id, ()) if paid else ():
            if action["type"] == "penalty_order" and action["id"] in paid:
                action.setdefault("paid_on", paid[action["id"]])
    return enforcement

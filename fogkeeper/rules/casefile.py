"""The case file: one establishment's record as the engine reads it (CASEFILE.md).

Structure and types are checked by the Structs of records.py, or by the pydantic schema of
schema.py when they refuse a file (it words the problems); what depends on the jurisdiction
(its action types, penalty classes, checklist items) and on the file as a whole
(unique ids, references) is checked by `parse_case` against the pack. Every
problem is reported with the path of its field, e.g. `services[3].date`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

import msgspec

from . import packs as packs_module
from . import records
from .actions import read_action
from .errors import CaseFileError, Problem
from .records import Action

if TYPE_CHECKING:
    from . import schema


@dataclass(frozen=True, slots=True)
class CaseFile:
    """A validated case file, bound to its pack; `model` holds its records as Structs
    (records.py), field for field the models of schema.py."""

    model: records.CaseFileModel
    pack: Any
    as_of: date | None
    actions: tuple[Action, ...] = field(default=())


def parse_case(
    data: Any, *, as_of: date | None = None, packs: Any = None, fast: bool = True
) -> CaseFile:
    """Validate a case file (a dict from YAML or JSON) and bind it to its pack.

    `as_of` overrides the file's own `as_of`. Raises `CaseFileError` listing
    every problem found. `fast=False` reads it with the schema alone, the slower path that
    words the problems (tests prove the two agree).
    """
    registry = packs or packs_module.default_registry()
    if not isinstance(data, dict):
        raise CaseFileError([Problem("", "a case file is a mapping of fields")])
    model = _fast_model(data) if fast else None
    checked = model is not None  # the fast path found every reference listed
    if model is None:  # not in the fast types' subset: the schema decides, and words why
        model = records.from_schema(_schema_model(data, registry))
    problems: list[Problem] = []
    if model.as_of is None and as_of is None:
        problems.append(Problem("as_of", "required (in the file or with --as-of)"))
    if not checked:
        _check_references(data, problems)
    if not registry.has(model.jurisdiction):
        problems.append(_unknown_jurisdiction(model.jurisdiction, registry))
        raise CaseFileError(problems)
    pack = registry.get(model.jurisdiction)
    _check_date_order(model, problems)
    _check_vocabulary(model, pack, problems)
    _check_checklist(model, pack, problems)
    actions = _read_actions(model, pack, problems)
    effective_as_of = as_of or model.as_of
    if effective_as_of is not None and effective_as_of < pack.effective:
        problems.append(
            Problem(
                "as_of",
                f"{effective_as_of} is before {pack.id} took effect on {pack.effective}",
            )
        )
    elif effective_as_of is not None:
        _check_design_exceptions(model, pack, effective_as_of, problems)
        _check_approvals(model, problems)
        _check_sample_units(model, pack, effective_as_of, problems)
    if problems:
        raise CaseFileError(problems)
    if model.establishment.category is None:
        est = msgspec.structs.replace(model.establishment, category=pack.default_category)
        model = msgspec.structs.replace(model, establishment=est)
    return CaseFile(model=model, pack=pack, as_of=effective_as_of, actions=tuple(actions))


def _schema_model(data: dict[Any, Any], registry: Any) -> schema.CaseFileModel:
    """The pydantic schema's reading of a case file; raises CaseFileError with every
    problem of structure and type (and of references beside them)."""
    from pydantic import ValidationError

    from . import schema

    try:
        return schema.CaseFileModel.model_validate(data)
    except ValidationError as err:
        problems = schema.problems_from(err)
        jurisdiction = data.get("jurisdiction")
        if isinstance(jurisdiction, str) and not registry.has(jurisdiction):
            problems.insert(0, _unknown_jurisdiction(jurisdiction, registry))
        _check_references(data, problems)
        raise CaseFileError(problems) from None


def _fast_model(data: dict[Any, Any]) -> records.CaseFileModel | None:
    """The case file as Structs, or None unless the fast types take it as it is, no id is
    blank and every reference is to a listed record: the schema then says what is wrong."""
    try:
        model = records.convert(data)
    except msgspec.ValidationError:
        return None
    if model.enforcement:
        actions = _raw_actions(model.enforcement)
        if actions is None:
            return None
        model = msgspec.structs.replace(model, enforcement=actions)
    ids = _listed_ids(data)
    if ids is None or not _references_hold(data, ids) or _blank_words(model):
        return None
    return model


def _raw_actions(items: list[Any]) -> list[Any] | None:
    """Enforcement actions as the schema's RawAction reads them (nulls dropped), or None."""
    actions = []
    for item in items:
        if type(item) is not dict:
            return None
        action_id, type_ = item.get("id"), item.get("type")
        if type(action_id) is not str or not action_id or action_id.isspace():
            return None
        if type(type_) is not str or not all(type(k) is str for k in item):
            return None
        extra = {k: v for k, v in item.items() if v is not None and k != "id" and k != "type"}
        actions.append(records.RawAction(action_id, type_, extra))
    return actions


def _blank_words(m: records.CaseFileModel) -> bool:
    """Whether a word of the file other than a record's id is blank (the ids are looked at
    by `_listed_ids`); str.isspace is stricter than the schema's regex."""
    est, permit = m.establishment, m.permit
    words = [est.id, est.category or "-"]
    if permit is not None:
        words.append(permit.number)
        words += permit.discharge_limits
        words += [limit.unit for limit in permit.discharge_limits.values()]
    words += {d.kind for d in m.devices}
    for s in m.samples:
        words += (s.parameter, s.unit)
    return any(map(str.isspace, words))


LISTS = (
    "devices",
    "haulers",
    "employees",
    "services",
    "trainings",
    "inspections",
    "incidents",
    "samples",
    "enforcement",
    "reports",
)


def _listed_ids(data: dict[str, Any]) -> dict[str, set[str]] | None:
    """The ids of each list of records, read from the file the Structs took (so each list is
    a list of mappings, each id a string): None unless each list is a plain list of plain
    dicts whose ids are neither blank nor shared. The raw dicts are read faster than the
    Structs' attributes."""
    ids: dict[str, set[str]] = {}
    for name in LISTS:
        listed: set[str] = set()
        items = data.get(name)
        if items is not None:
            if type(items) is not list:
                return None
            for item in items:
                if type(item) is not dict:
                    return None
                record_id: str = item["id"]
                if record_id in listed or record_id.isspace():
                    return None
                listed.add(record_id)
        ids[name] = listed
    return ids


def _refer(items: Any, key: str, ids: set[str]) -> bool:
    """Whether each of the records (a list of dicts, or absent) that names a `key` names a
    listed id."""
    if items is None:
        return True
    if type(items) is not list:
        return False
    for item in items:
        if type(item) is not dict:
            return False
        ref = item.get(key)
        if ref is not None and ref not in ids:
            return False
    return True


def _references_hold(data: dict[str, Any], ids: dict[str, set[str]]) -> bool:
    """True when `_check_references` would find nothing (checked on the raw lists that
    `_listed_ids` found plain)."""
    devices, haulers, employees = ids["devices"], ids["haulers"], ids["employees"]
    services = data.get("services")
    if not (
        _refer(services, "device", devices)
        and _refer(services, "hauler", haulers)
        and _refer(data.get("samples"), "device", devices)
        and _refer(data.get("yellow_grease_pickups"), "hauler", haulers)
    ):
        return False
    for training in data.get("trainings") or ():
        if not _refer(training.get("attendees"), "employee", employees):
            return False
    for inspection in data.get("inspections") or ():
        if not (
            _refer(inspection.get("measurements"), "device", devices)
            and _refer(inspection.get("answers"), "device", devices)
        ):
            return False
    return True


def _unknown_jurisdiction(name: str, registry: Any) -> Problem:
    known = ", ".join(registry.ids())
    return Problem("jurisdiction", f"unknown jurisdiction {name!r} (known: {known})")


def _ids(items: Any, path: str, problems: list[Problem]) -> set[Any]:
    if type(items) is not list:
        return set()
    ids = [item.get("id") if type(item) is dict else None for item in items]
    known = {i for i in ids if isinstance(i, str)}  # an id of another type cannot be hashed
    if len(known) < len(ids):
        seen: set[Any] = set()
        for i, value in enumerate(ids):
            if isinstance(value, str):
                if value in seen:
                    problems.append(Problem(f"{path}[{i}].id", f"duplicate id {value!r}"))
                seen.add(value)
    return known


def _refs(
    items: Any, field: str, known: set[Any], path: str, what: str, problems: list[Problem]
) -> None:
    if type(items) is not list:
        return
    for i, item in enumerate(items):
        if type(item) is dict:
            value = item.get(field)
            if isinstance(value, str) and value not in known:
                problems.append(Problem(f"{path}[{i}].{field}", f"unknown {what} {value!r}"))


def _check_references(data: dict[Any, Any], problems: list[Problem]) -> None:
    """Unique ids within each list, and every reference to a listed id. Works on the raw
    data, so broken references are reported even beside badly typed fields."""
    get = data.get
    devices = _ids(get("devices"), "devices", problems)
    haulers = _ids(get("haulers"), "haulers", problems)
    employees = _ids(get("employees"), "employees", problems)
    for name in LISTS[3:]:
        _ids(get(name), name, problems)
    _refs(get("services"), "device", devices, "services", "device", problems)
    _refs(get("samples"), "device", devices, "samples", "device", problems)
    _refs(get("services"), "hauler", haulers, "services", "hauler", problems)
    pickups = get("yellow_grease_pickups")
    _refs(pickups, "hauler", haulers, "yellow_grease_pickups", "hauler", problems)
    trainings = get("trainings")
    for i, t in enumerate(trainings if type(trainings) is list else ()):
        if type(t) is dict:
            path = f"trainings[{i}].attendees"
            _refs(t.get("attendees"), "employee", employees, path, "employee", problems)
    inspections = get("inspections")
    for i, insp in enumerate(inspections if type(inspections) is list else ()):
        if type(insp) is dict:
            for key in ("measurements", "answers"):
                path = f"inspections[{i}].{key}"
                _refs(insp.get(key), "device", devices, path, "device", problems)


def _before(
    problems: list[Problem], path: str, later: date | None, earlier: date, what: str
) -> None:
    if later is not None and later < earlier:
        problems.append(Problem(path, f"{later} is before {what} ({earlier})"))


def _check_date_order(m: records.CaseFileModel, problems: list[Problem]) -> None:
    """Dates that cannot come before another date of the same record."""
    est = m.establishment
    _before(problems, "establishment.closed_on", est.closed_on, est.opened_on, "opened_on")
    if m.permit is not None:
        p = m.permit
        _before(problems, "permit.expires_on", p.expires_on, p.issued_on, "issued_on")
        if p.suspended_from is not None:
            _before(
                problems,
                "permit.suspended_until",
                p.suspended_until,
                p.suspended_from,
                "suspended_from",
            )
        elif p.suspended_until is not None:
            problems.append(Problem("permit.suspended_until", "needs suspended_from"))
    for i, e in enumerate(m.employees):
        if e.left_on is not None and e.left_on < e.hired_on:  # the path is written only then
            _before(problems, f"employees[{i}].left_on", e.left_on, e.hired_on, "hired_on")
    for i, inc in enumerate(m.incidents):
        for key in ("written_report_on", "clearance_inspection_on"):
            _before(problems, f"incidents[{i}].{key}", getattr(inc, key), inc.date, "the incident")


def _check_vocabulary(m: records.CaseFileModel, pack: Any, problems: list[Problem]) -> None:
    """Device kinds and categories are the pack's words (RULES.md 11.13)."""
    category = m.establishment.category
    if category is not None and category not in pack.categories:
        known = ", ".join(pack.categories)
        problems.append(
            Problem(
                "establishment.category", f"{category!r} is not a category of {pack.id} ({known})"
            )
        )
    for i, device in enumerate(m.devices):
        if device.kind not in pack.device_kinds:
            known = ", ".join(pack.device_kinds)
            problems.append(
                Problem(
                    f"devices[{i}].kind",
                    f"{device.kind!r} is not a device kind of {pack.id} ({known})",
                )
            )
    for i, report in enumerate(m.reports):
        if report.kind not in pack.reports:
            known = ", ".join(pack.reports) or "it asks none"
            problems.append(
                Problem(
                    f"reports[{i}].kind",
                    f"{report.kind!r} is not a kind of report of {pack.id} ({known})",
                )
            )


def _check_approvals(m: records.CaseFileModel, problems: list[Any]) -> None:
    """An approval ends on or after the day it was given."""
    for i, device in enumerate(m.devices):
        for j, a in enumerate(device.approvals):
            if a.ends_on is not None and a.ends_on < a.approved_on:
                problems.append(
                    Problem(
                        f"devices[{i}].approvals[{j}].ends_on",
                        f"ends on {a.ends_on}, before it was approved on {a.approved_on}",
                    )
                )


def _check_design_exceptions(
    m: records.CaseFileModel, pack: Any, as_of: date, problems: list[Any]
) -> None:
    if pack.params_on(as_of).get("gcd.exceptions_allowed", False):
        return
    for i, device in enumerate(m.devices):
        if device.approved_exceptions:
            problems.append(
                Problem(
                    f"devices[{i}].approved_exceptions",
                    f"{pack.id} allows no exceptions to its design limits "
                    f"({pack.params_on(as_of).reference('gcd.exceptions_allowed')})",
                )
            )


def sample_limits(pack: Any, permit: Any, on: date) -> dict[str, Any]:
    """Parameter -> {max, unit}: the pack's discharge limits, the permit's over them."""
    limits = dict(pack.params_on(on).get("discharge.limits") or {})
    if permit is not None:
        limits.update(
            {k: {"max": v.max, "unit": v.unit} for k, v in permit.discharge_limits.items()}
        )
    return limits


def _check_sample_units(
    m: records.CaseFileModel, pack: Any, as_of: date, problems: list[Any]
) -> None:
    if not m.samples:
        return
    limits = sample_limits(pack, m.permit, as_of)
    for i, sample in enumerate(m.samples):
        limit = limits.get(sample.parameter)
        if limit is not None and sample.unit != limit["unit"]:
            problems.append(
                Problem(
                    f"samples[{i}].unit",
                    f"{sample.unit!r} is not the unit of the {sample.parameter} limit "
                    f"({limit['unit']})",
                )
            )


def _check_checklist(m: records.CaseFileModel, pack: Any, problems: list[Problem]) -> None:
    if {a.item for insp in m.inspections for a in insp.answers} <= pack.checklist.keys():
        return  # every item is on the checklist
    for i, insp in enumerate(m.inspections):
        for j, a in enumerate(insp.answers):
            if a.item not in pack.checklist:
                problems.append(
                    Problem(
                        f"inspections[{i}].answers[{j}].item",
                        f"{a.item!r} is not on the {pack.id} checklist",
                    )
                )


def _read_actions(m: records.CaseFileModel, pack: Any, problems: list[Problem]) -> list[Action]:
    actions = []
    for i, raw in enumerate(m.enforcement):
        path = f"enforcement[{i}]"
        spec = pack.actions.get(raw.type)
        if spec is None:
            allowed = ", ".join(sorted(pack.actions))
            problems.append(
                Problem(f"{path}.type", f"{raw.type!r} is not an action of {pack.id} ({allowed})")
            )
            continue
        action = read_action(spec, raw, path, pack, problems)
        if action is not None:
            actions.append(action)
    _check_action_references(m, pack, actions, problems)
    return actions


def _check_action_references(
    m: records.CaseFileModel, pack: Any, actions: list[Action], problems: list[Problem]
) -> None:
    """A field of kind action(type) names another action of the case, of that type."""
    types = {raw.id: raw.type for raw in m.enforcement}
    for i, raw in enumerate(m.enforcement):
        spec = pack.actions.get(raw.type)
        if spec is None:
            continue
        extra = raw.model_extra or {}
        for name, fs in spec.fields.items():
            value = extra.get(name)
            if fs.kind != "action" or not isinstance(value, str):
                continue
            here = f"enforcement[{i}].{name}"
            if value == raw.id:
                problems.append(Problem(here, f"{raw.id} cannot name itself"))
            elif value not in types:
                problems.append(Problem(here, f"{value!r} is not an action of this case"))
            elif types[value] not in fs.choices:
                allowed = " or ".join(fs.choices)
                problems.append(Problem(here, f"{value} is a {types[value]}, not a {allowed}"))

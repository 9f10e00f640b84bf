"""Checking a jurisdiction pack: every problem at once, each naming its file and key.

`load_pack` stops at the first thing wrong; `check_pack(folder)` reads the same files
itself and collects every problem as `(file, key, message)`, so an author fixes a pack
in one pass (`fogkeeper packs check DIR`). It knows what the engine reads: PARAMETERS
below is the table of every parameter the engine and the apps look up (grep
`ctx.p[...]`, `ctx.p.get(...)`, `ctx.p.duration(...)`, `ctx.add(..., name)` and
`pack.param(...)`), with the shape its value must have and the rules that read it.
A parameter not in the table passes unless its name ends in a suffix with a meaning
(`_days`: whole days; `_period`, `_interval`, `_window`, `_lead`, `_grace`, `_term`,
`_limit`: a period). When nothing is found, the pack is also loaded with `load_pack`,
so whatever the loader refuses is reported too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml

from .calendar import WEEKDAYS, Duration
from .errors import PackError
from .packs import (
    _FIELD_KINDS,
    APPEAL_LEVELS,
    DEADLINE_KINDS,
    IMPOSED_BY,
    PACKS_DIR,
    PENALTY_UNITS,
    SEVERITIES,
    _load_yaml,
    load_pack,
)
from .records import DESIGN_FIELDS
from .yamllines import key_lines, line_of

FILES = ("pack.yaml", "parameters.yaml", "checklist.yaml", "enforcement.yaml")
PENALTY_CAP = "enforcement.penalty_cap."

# The rules the engine's checks raise (fogkeeper/rules/checks/). Enforcement rules
# (`enforcement.*`, `fees.*`) are raised by the checks their action types name in
# enforcement.yaml, so a pack may list them when one of its actions does.
ENGINE_RULES = frozenset(
    {
        "permit.missing",
        "permit.new_operator",
        "permit.expired",
        "permit.renewal_late",
        "permit.change_not_notified",
        "permit.term_invalid",
        "permit.suspended",
        "permit.revoked",
        "discharge.limit_exceeded",
        "gcd.missing",
        "gcd.trap_prohibited",
        "gcd.design_nonconforming",
        "gcd.service_overdue",
        "gcd.accumulation_over_limit",
        "gcd.outlet_clearance",
        "gcd.partial_pump_out",
        "gcd.unlicensed_hauler",
        "gcd.trap_needs_interceptor",
        "gcd.frequency_review",
        "gcd.frequency_invalid",
        "inspection.annual_due",
        "food_grinder.prohibited",
        "yellow_grease.collection_overdue",
        "training.new_hire_overdue",
        "training.refresher_overdue",
        "training.unsigned",
        "incident.overflow",
        "incident.repeat_overflow",
        "incident.written_report_late",
    }
)
# What the schedule lists (`ctx.plan(...)`): the keys `obligations:` may title.
OBLIGATIONS = frozenset(
    {
        "permit.renewal_application",
        "permit.expiry",
        "gcd.service",
        "inspection.annual",
        "yellow_grease.collection",
        "training.new_hire",
        "training.refresher",
        "incident.written_report",
    }
)
PACK_KEYS = {
    "id": True,
    "name": True,
    "ordinance": True,
    "effective": True,
    "effective_reference": True,
    "holidays": True,
    "device_kinds": True,
    "categories": True,
    "default_category": True,
    "timezone": False,
    "titles": False,
    "obligations": False,
    "rules": False,
}
HOLIDAY_KEYS = ("name", "month", "day", "weekday", "nth", "offset_days")
ACTION_KEYS = (
    "title", "citation", "date_field", "fields", "deadlines", "checks", "appeal", "letter",
)  # fmt: skip
DEADLINE_KEYS = (
    "name",
    "kind",
    "from",
    "add",
    "roll",
    "citation",
    "when",
    "unless_paid",
    "extension",
    "appeal_to",
)
EXTENSION_KEYS = ("requested", "within", "from", "add", "roll")
PROCEDURE_KEYS = (
    "citation",
    "sequence",
    "levels",
    "first_notice",
    "on_appeal",
    "judicial_bar",
    "administrative_bar",
)
DATE_KINDS = ("date", "planned_date", "datetime")
CALENDAR_UNITS = ("days", "weeks", "months", "years")


@dataclass(frozen=True, slots=True)
class PackProblem:
    file: str  # "imaginary-town/parameters.yaml"
    key: str  # "gcd.default_service_frequency.values.2024-01-01"
    message: str
    line: int | None = None  # of the key, or of the nearest key above it in the file

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


@dataclass
class PackCheck:
    """What `check_pack` found in one folder."""

    folder: Path
    pack_id: str | None = None
    problems: list[PackProblem] = field(default_factory=list)
    rules: int = 0
    parameters: int = 0
    checklist: int = 0
    actions: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        return (
            f"{self.pack_id or self.folder.name}: ok ({self.rules} rules, {self.parameters} "
            f"parameters, {self.checklist} checklist items, {self.actions} action types)"
        )


# Value shapes. Each checker returns the problems of one value, as messages (empty: fine).

Checker = Callable[[Any, "_Pack"], list[str]]


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _period(v: Any, units: tuple[str, ...] | None = None, why: str = "") -> list[str]:
    if _is_number(v):
        return [f"{v!r} is a bare number where a period is required (write e.g. '{v} days')"]
    try:
        d = Duration.parse(v)
    except ValueError as e:
        return [str(e)]
    if units is not None and d.unit not in units:
        return [f"{v!r} is counted in {d.unit.replace('_', ' ')}; {why}"]
    return []


def duration(v: Any, pack: _Pack) -> list[str]:
    return _period(v)


def date_period(v: Any, pack: _Pack) -> list[str]:
    """A period added to a date that stays a date (no hours)."""
    return _period(
        v, ("days", "business_days", "weeks", "months", "years"), "hours do not apply here"
    )


def backward_period(v: Any, pack: _Pack) -> list[str]:
    """A period counted back from a date (calendar.subtract: never business days or hours)."""
    return _period(
        v, CALENDAR_UNITS, "a period counted back from a date is in days, weeks, months or years"
    )


def frequency(v: Any, pack: _Pack) -> list[str]:
    """A frequency compared with one in days (a month = 30 days, RULES.md 11.1)."""
    return _period(v, CALENDAR_UNITS, "a frequency is in days, weeks, months or years")


def whole_days(v: Any, pack: _Pack) -> list[str]:
    if isinstance(v, int) and not isinstance(v, bool):
        return [] if v >= 0 else [f"{v!r} is negative where a whole number of days is required"]
    if isinstance(v, str):
        try:
            d = Duration.parse(v)
        except ValueError:
            pass
        else:
            unit = d.unit.replace("_", " ")
            hint = f" (write {d.n})" if d.unit == "days" else ""
            return [f"{v!r} is a period in {unit} where a whole number of days is required{hint}"]
    return [f"{v!r} is not a whole number of days"]


def day_list(v: Any, pack: _Pack) -> list[str]:
    if not isinstance(v, list) or not v:
        return [f"{v!r} is not a list of whole numbers of days"]
    return [f"[{i}]: {m}" for i, x in enumerate(v) for m in whole_days(x, pack)]


def fraction(v: Any, pack: _Pack) -> list[str]:
    if _is_number(v) and 0 < v <= 1:
        return []
    return [f"{v!r} is not a fraction above 0 and at most 1 (a share: 0.3 is 30%)"]


def flag(v: Any, pack: _Pack) -> list[str]:
    return [] if isinstance(v, bool) else [f"{v!r} is not true or false"]


def count(v: Any, pack: _Pack) -> list[str]:
    if isinstance(v, int) and not isinstance(v, bool) and v >= 1:
        return []
    return [f"{v!r} is not a whole number of 1 or more"]


def amount(v: Any, pack: _Pack) -> list[str]:
    if _is_number(v) and v >= 0:
        try:
            Decimal(str(v))
        except InvalidOperation:  # pragma: no cover - float('nan')
            pass
        else:
            return []
    return [f"{v!r} is not an amount of zero or more"]


def device_kind_list(v: Any, pack: _Pack) -> list[str]:
    if not isinstance(v, list):
        return [f"{v!r} is not a list of device kinds"]
    return [m for x in v for m in pack.unknown_kind(x)]


def category_list(v: Any, pack: _Pack) -> list[str]:
    if not isinstance(v, list):
        return [f"{v!r} is not a list of categories"]
    return [m for x in v for m in pack.unknown_category(x)]


def kind_frequencies(v: Any, pack: _Pack) -> list[str]:
    if not isinstance(v, dict):
        return [f"{v!r} is not a mapping of device kinds to periods ({{trap: '30 days'}})"]
    out = []
    for kind, period in v.items():
        out += pack.unknown_kind(kind)
        out += [f"{kind}: {m}" for m in frequency(period, pack)]
    return out


def design_limits(v: Any, pack: _Pack) -> list[str]:
    if not isinstance(v, dict):
        return [f"{v!r} is not a mapping of device kinds to design limits"]
    out = []
    for kind, limits in v.items():
        out += pack.unknown_kind(kind)
        if not isinstance(limits, dict):
            out.append(f"{kind}: expected a mapping of design fields to {{min, max}}")
            continue
        for name, bound in limits.items():
            here = f"{kind}.{name}"
            if name not in DESIGN_FIELDS:
                out.append(f"{here}: not a design field (one of {', '.join(DESIGN_FIELDS)})")
            if not isinstance(bound, dict) or not bound or set(bound) - {"min", "max"}:
                out.append(f"{here}: expected {{min, max}} (either or both)")
                continue
            for end, x in bound.items():
                if not _is_number(x):
                    out.append(f"{here}.{end}: {x!r} is not a number")
            lo, hi = bound.get("min"), bound.get("max")
            if _is_number(lo) and _is_number(hi) and lo > hi:
                out.append(f"{here}: min {lo} is above max {hi}")
    return out


def discharge_limits(v: Any, pack: _Pack) -> list[str]:
    if not isinstance(v, dict):
        return [f"{v!r} is not a mapping of sampled parameters to {{max, unit}}"]
    out = []
    for name, limit in v.items():
        if not isinstance(limit, dict) or set(limit) != {"max", "unit"}:
            out.append(f"{name}: expected {{max, unit}}")
            continue
        if not _is_number(limit["max"]) or limit["max"] < 0:
            out.append(f"{name}.max: {limit['max']!r} is not a number of zero or more")
        if not isinstance(limit["unit"], str) or not limit["unit"].strip():
            out.append(f"{name}.unit: expected a unit (mg/L)")
    return out


def penalty_cap(v: Any, pack: _Pack) -> list[str]:
    if not isinstance(v, dict):
        return [f"{v!r} is not {{amount, per, imposed_by}}"]
    out = [f"{k}: unknown key" for k in v if k not in ("amount", "per", "imposed_by")]
    for key in ("amount", "per", "imposed_by"):
        if key not in v:
            out.append(f"{key}: required ({{amount, per, imposed_by}})")
    if "amount" in v:
        out += [f"amount: {m}" for m in amount(v["amount"], pack)]
    if "per" in v and v["per"] not in PENALTY_UNITS:
        out.append(f"per: {v['per']!r} is not one of {', '.join(PENALTY_UNITS)}")
    if "imposed_by" in v and v["imposed_by"] not in IMPOSED_BY:
        out.append(f"imposed_by: {v['imposed_by']!r} is not one of {', '.join(IMPOSED_BY)}")
    return out


def one_of(*choices: str) -> Checker:
    def check(v: Any, pack: _Pack) -> list[str]:
        return [] if v in choices else [f"{v!r} is not one of {', '.join(choices)}"]

    check.__name__ = f"one of {', '.join(choices)}"
    return check


@dataclass(frozen=True, slots=True)
class Param:
    check: Checker
    needed_by: tuple[str, ...] = ()  # rules that read it when the pack lists them
    always: bool = False  # read on every evaluation
    when: tuple[str, Any] | None = None  # needed only while that parameter has that value


# Every parameter read by name (fogkeeper/rules unless noted). Periods that the actions of
# enforcement.yaml name (`add`, `within`, `limit`, `rate`, ...) are checked from there.
PARAMETERS: dict[str, Param] = {
    "report.lookback_days": Param(whole_days, always=True),
    "applicability.exempt_off_public_sewer": Param(flag, always=True),
    "applicability.exempt_categories": Param(category_list, always=True),
    "permit.renewal_pending_keeps_permit": Param(flag),
    "permit.renewal_application_lead": Param(backward_period, ("permit.renewal_late",)),
    "permit.change_notice_lead": Param(backward_period, ("permit.change_not_notified",)),
    "permit.max_term": Param(date_period, ("permit.term_invalid",)),
    "permit.term": Param(date_period),  # the term a new permit is issued for (permits app)
    "permit.modification_notice_period": Param(date_period),  # permits app
    "permit.modification_notice_inspection_period": Param(date_period),  # permits app
    "permit.holder_business_name": Param(flag),
    "gcd.default_service_frequency": Param(kind_frequencies),
    "gcd.required_categories": Param(category_list, ("gcd.missing",)),
    "gcd.required_device_kinds": Param(device_kind_list),
    "gcd.trap_prohibited_device_kinds": Param(device_kind_list),
    "gcd.exceptions_allowed": Param(flag),
    "gcd.missing_scope": Param(one_of("every_fse", "new_or_changed"), ("gcd.missing",)),
    "gcd.design_limits": Param(design_limits),
    "gcd.design_limits_scope": Param(one_of("installed_under_chapter", "all")),
    "gcd.accumulation_limit": Param(
        fraction, ("gcd.accumulation_over_limit", "gcd.frequency_review")
    ),
    "gcd.accumulation_device_kinds": Param(device_kind_list, ("gcd.accumulation_over_limit",)),
    "gcd.outlet_min_clearance_inches": Param(amount, ("gcd.outlet_clearance",)),
    "gcd.outlet_device_kinds": Param(device_kind_list, ("gcd.outlet_clearance",)),
    "gcd.partial_pump_out_device_kinds": Param(device_kind_list),
    "gcd.trap_needs_interceptor_device_kinds": Param(
        device_kind_list, ("gcd.trap_needs_interceptor",)
    ),
    "gcd.trap_needs_interceptor_max_frequency_days": Param(
        whole_days, ("gcd.trap_needs_interceptor",)
    ),
    "gcd.allowed_frequencies_days": Param(
        day_list, ("gcd.frequency_review", "gcd.frequency_invalid")
    ),
    "gcd.frequency_review_min_intervals": Param(count, ("gcd.frequency_review",)),
    "gcd.frequency_review_sample_intervals": Param(count, ("gcd.frequency_review",)),
    "discharge.limits": Param(discharge_limits),
    "inspection.annual_interval": Param(date_period, ("inspection.annual_due",)),
    "inspection.annual_scope": Param(one_of("establishment", "device"), ("inspection.annual_due",)),
    "food_grinder.scope": Param(
        one_of("all", "new_and_existing_after_grace"), ("food_grinder.prohibited",)
    ),
    "food_grinder.existing_grace": Param(
        date_period,
        ("food_grinder.prohibited",),
        when=("food_grinder.scope", "new_and_existing_after_grace"),
    ),
    "training.new_hire_window": Param(date_period, ("training.new_hire_overdue",)),
    "training.refresher_interval": Param(date_period, ("training.refresher_overdue",)),
    "incident.overflow_open_until_clearance": Param(flag, ("incident.overflow",)),
    "incident.written_report_period": Param(duration, ("incident.written_report_late",)),
    "incident.repeat_window": Param(date_period, ("incident.repeat_overflow",)),
    "incident.cost_recovery_period": Param(duration),  # billing
    "enforcement.hearing_continuance_limit": Param(duration),
    "enforcement.penalty_appeal_period": Param(duration),
    "records.retention": Param(backward_period),  # registry: no deletion inside it
}
SUFFIXES: tuple[tuple[tuple[str, ...], Checker], ...] = (
    (("_days",), whole_days),
    (("_period", "_interval", "_window", "_lead", "_grace", "_term", "_limit"), duration),
)
# What the named keys of an action's checks must be: a field, a deadline, a parameter of
# the given shape, or a rule of the pack.
CHECKS: dict[str, dict[str, tuple[str, Any]]] = {
    "daily_fine": {
        "rule": ("label", None),
        "after": ("field", None),
        "until": ("field", None),
        "rate": ("param", amount),
        "citation": ("citation", None),
    },
    "hearing_window": {
        "field": ("field", None),
        "window": ("deadline", None),
        "rule": ("rule", None),
        "citation": ("citation", None),
        "continuance": ("continuance", None),
    },
    "penalty_cap": {"rule": ("rule", None), "citation": ("citation", None)},
    "compliance_schedule": {
        "precondition_rule": ("rule", None),
        "missed_rule": ("rule", None),
        "arrangement_allowed": ("param", flag),
    },
    "delinquency": {"rule": ("rule", None), "after": ("deadline", None), "paid": ("field", None)},
}
REQUIRED_CHECK_KEYS = {
    "daily_fine": ("rule", "after", "until", "rate", "citation"),
    "hearing_window": ("field", "window", "rule"),
    "penalty_cap": ("rule",),
    "compliance_schedule": ("precondition_rule", "missed_rule", "arrangement_allowed"),
    "delinquency": ("rule", "after", "paid"),
}


class _Names(set):
    """A set of names that answers "no" for a value that cannot be a name (a list, a map)."""

    def __contains__(self, x: object) -> bool:
        try:
            return super().__contains__(x)
        except TypeError:
            return False


class _Fields(dict):
    """Field name -> (kind, choices), answering "no" for a value that cannot be a name."""

    def __contains__(self, x: object) -> bool:
        try:
            return super().__contains__(x)
        except TypeError:
            return False


def _text(v: Any) -> bool:
    return isinstance(v, str) and bool(v.strip())


def _date(v: Any) -> date | None:
    if type(v) is date:
        return v
    try:
        return date.fromisoformat(str(v))
    except ValueError:
        return None


class _Pack:
    """The folder being checked: its files as read, and the problems found so far."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.problems: list[PackProblem] = []
        self.data: dict[str, Any] = {}
        self.kinds: set[str] = _Names()
        self.categories: set[str] = _Names()
        self.effective: date | None = None
        self.rules: set[str] = _Names()
        self.parameters: dict[str, Any] = {}
        self.uses: dict[str, list[tuple[str, str, Checker]]] = {}  # param -> (file, key, shape)
        self.lines: dict[str, dict[str, int]] = {}  # file -> key path -> line

    def add(self, file: str, key: str, message: str) -> None:
        line = line_of(self.lines.get(file, {}), key)
        self.problems.append(PackProblem(f"{self.folder.name}/{file}", key, message, line))

    def read(self, name: str, required: bool = False) -> Any:
        path = self.folder / name
        if not path.exists():
            if required:
                self.add(name, "", "missing")
            return None
        self.lines[name] = key_lines(path)
        try:
            return _load_yaml(path)
        except yaml.YAMLError as e:
            self.add(name, "", f"not YAML: {' '.join(str(e).split())}")
        except (OSError, UnicodeDecodeError) as e:
            self.add(name, "", f"cannot read: {e}")
        return None

    def unknown_kind(self, kind: Any) -> list[str]:
        if kind in self.kinds:
            return []
        return [f"unknown device kind {kind!r} (the pack's kinds: {_listed(self.kinds)})"]

    def unknown_category(self, category: Any) -> list[str]:
        if category in self.categories:
            return []
        return [
            f"unknown category {category!r} (the pack's categories: {_listed(self.categories)})"
        ]

    def cited(self, file: str, key: str, entry: Any, name: str = "citation") -> None:
        if not isinstance(entry, dict) or not _text(entry.get(name)):
            self.add(file, key, f"no {name} (every value of an ordinance must cite its section)")

    def use(self, param: Any, file: str, key: str, shape: Checker | None) -> None:
        """An action's key naming a parameter: it must exist and have the shape."""
        if not isinstance(param, str) or param not in self.parameters:
            self.add(file, key, f"unknown parameter {param!r}")
        elif shape is not None:
            self.uses.setdefault(param, []).append((file, key, shape))


def _listed(names: Iterable[str]) -> str:
    return ", ".join(sorted(names)) or "none"


def _mapping(pk: _Pack, file: str, key: str, value: Any, what: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        pk.add(file, key, f"expected a mapping of {what}")
        return {}
    return value


def _unknown_keys(pk: _Pack, file: str, key: str, entry: dict, known: Iterable[str]) -> None:
    known = tuple(known)
    for k in entry:
        if k not in known:
            prefix = f"{key}.{k}" if key else str(k)
            pk.add(file, prefix, f"unknown key (expected {', '.join(known)})")


# pack.yaml


def _check_meta(pk: _Pack, meta: Any) -> None:
    f = "pack.yaml"
    if not isinstance(meta, dict):
        pk.add(f, "", "expected a mapping of id, name, ordinance, effective, ...")
        return
    _unknown_keys(pk, f, "", meta, PACK_KEYS)
    for key, required in PACK_KEYS.items():
        if required and meta.get(key) in (None, "", {}, []):
            pk.add(f, key, "required")
    for key in ("id", "name", "ordinance"):
        if key in meta and meta[key] is not None and not _text(meta[key]):
            pk.add(f, key, f"expected text, not {meta[key]!r}")
    if isinstance(meta.get("id"), str) and not re.fullmatch(r"[a-z0-9][a-z0-9-]*", meta["id"]):
        pk.add(f, "id", f"{meta['id']!r}: lower-case letters, digits and hyphens only")
    if meta.get("effective") is not None:
        pk.effective = _date(meta["effective"])
        if pk.effective is None:
            pk.add(f, "effective", f"not a date: {meta['effective']!r}")
    if meta.get("effective_reference") is not None and not _text(meta["effective_reference"]):
        pk.add(f, "effective_reference", "no reference (say where the effective date comes from)")
    tz = meta.get("timezone")
    if tz is not None:
        try:
            ZoneInfo(str(tz))
        except (ZoneInfoNotFoundError, ValueError):
            pk.add(f, "timezone", f"unknown time zone {tz!r} (e.g. America/Los_Angeles)")
    for key, title in _mapping(pk, f, "titles", meta.get("titles"), "names to titles").items():
        if not _text(title):
            pk.add(f, f"titles.{key}", f"expected a title, not {title!r}")
    if "holidays" in meta and meta["holidays"] is not None:
        _check_holidays(pk, meta["holidays"])
    pk.kinds = _check_vocab(pk, "device_kinds", meta.get("device_kinds"))
    pk.categories = _check_vocab(pk, "categories", meta.get("categories"))
    default = meta.get("default_category")
    if default is not None and pk.categories and default not in pk.categories:
        pk.add(f, "default_category", pk.unknown_category(default)[0])
    obligations = _mapping(pk, f, "obligations", meta.get("obligations"), "obligations to titles")
    for key, title in obligations.items():
        if key not in OBLIGATIONS:
            pk.add(
                f,
                f"obligations.{key}",
                f"not an obligation the schedule lists ({_listed(OBLIGATIONS)})",
            )
        if not _text(title):
            pk.add(f, f"obligations.{key}", "expected a title")
    rules = _mapping(pk, f, "rules", meta.get("rules"), "rule ids to {citation, severity, title}")
    for rule_id, entry in rules.items():
        here = f"rules.{rule_id}"
        pk.rules.add(str(rule_id))
        if not isinstance(entry, dict):
            pk.add(f, here, "expected {citation, severity?, title?}")
            continue
        _unknown_keys(pk, f, here, entry, ("citation", "severity", "title"))
        pk.cited(f, here, entry)
        if entry.get("severity", "violation") not in SEVERITIES:
            pk.add(
                f,
                f"{here}.severity",
                f"{entry['severity']!r} is not one of {', '.join(SEVERITIES)}",
            )
        if "title" in entry and not _text(entry["title"]):
            pk.add(f, f"{here}.title", "expected a title")


def _check_holidays(pk: _Pack, data: Any) -> None:
    f = "pack.yaml"
    if not isinstance(data, dict):
        pk.add(f, "holidays", "expected {reference, observed, list}")
        return
    _unknown_keys(pk, f, "holidays", data, ("reference", "observed", "list"))
    pk.cited(f, "holidays", data, "reference")
    observed = data.get("observed") or {}
    if not isinstance(observed, dict):
        pk.add(f, "holidays.observed", "expected {saturday: -1, sunday: 1}")
        observed = {}
    _unknown_keys(pk, f, "holidays.observed", observed, ("saturday", "sunday"))
    for day, v in observed.items():
        if not isinstance(v, int) or isinstance(v, bool) or abs(v) > 6:
            pk.add(f, f"holidays.observed.{day}", f"{v!r} is not a shift in days (-1, 0, 1)")
    entries = data.get("list") or []
    if not isinstance(entries, list):
        pk.add(f, "holidays.list", "expected a list of holidays")
        return
    for i, h in enumerate(entries):
        here = f"holidays.list[{i}]"
        if not isinstance(h, dict):
            pk.add(f, here, "expected {name, month, day} or {name, month, weekday, nth}")
            continue
        _unknown_keys(pk, f, here, h, HOLIDAY_KEYS)
        if not _text(h.get("name")):
            pk.add(f, f"{here}.name", "required")
        month = h.get("month")
        if not isinstance(month, int) or isinstance(month, bool) or not 1 <= month <= 12:
            pk.add(f, f"{here}.month", f"{month!r} is not a month (1-12)")
            month = None
        if h.get("day") is not None:
            day = h["day"]
            try:
                if isinstance(day, bool):
                    raise TypeError
                date(2024, month or 1, day)
            except (TypeError, ValueError):
                pk.add(f, f"{here}.day", f"{day!r} is not a day of the month")
            if h.get("weekday") is not None or h.get("nth") is not None:
                pk.add(f, here, "give either day, or weekday and nth, not both")
        else:
            if h.get("weekday") not in _Names(WEEKDAYS):
                pk.add(
                    f,
                    f"{here}.weekday",
                    f"{h.get('weekday')!r} is not one of {', '.join(WEEKDAYS)} (or give day)",
                )
            if h.get("nth") not in (1, 2, 3, 4, 5, -1):
                pk.add(f, f"{here}.nth", f"{h.get('nth')!r} is not 1-5 or -1 (the last)")
        offset = h.get("offset_days", 0)
        if not isinstance(offset, int) or isinstance(offset, bool):
            pk.add(f, f"{here}.offset_days", f"{offset!r} is not a whole number of days")


def _check_vocab(pk: _Pack, key: str, data: Any) -> set[str]:
    f = "pack.yaml"
    if data is None:
        return _Names()
    if not isinstance(data, dict) or not data:
        pk.add(f, key, "expected a mapping of ids to {title, citation}")
        return _Names()
    for name, entry in data.items():
        here = f"{key}.{name}"
        if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", name):
            pk.add(f, here, "an id is lower-case letters, digits and underscores")
        if not isinstance(entry, dict):
            pk.add(f, here, "expected {title, citation}")
            continue
        _unknown_keys(pk, f, here, entry, ("title", "citation"))
        if not _text(entry.get("title")):
            pk.add(f, here, "no title")
        pk.cited(f, here, entry)
    return _Names(str(k) for k in data)


# parameters.yaml


def _check_parameters(pk: _Pack, data: Any) -> None:
    f = "parameters.yaml"
    if data is None:
        return
    if not isinstance(data, dict):
        pk.add(f, "", "expected a mapping of parameter names to {description, values}")
        return
    for name, entry in data.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("values"), dict):
            pk.add(
                f, str(name), "expected {description, values} with values keyed by effective date"
            )
            continue
        _unknown_keys(pk, f, name, entry, ("description", "values"))
        if "description" in entry and not isinstance(entry["description"], str):
            pk.add(f, f"{name}.description", "expected text")
        if not entry["values"]:
            pk.add(f, f"{name}.values", "no values")
            continue
        values = []
        for eff, v in entry["values"].items():
            here = f"{name}.values.{eff}"
            on = _date(eff)
            if on is None:
                pk.add(f, here, f"not a date: {eff!r}")
            elif pk.effective is not None and on < pk.effective:
                pk.add(f, here, f"before the pack takes effect ({pk.effective})")
            if not isinstance(v, dict) or "value" not in v:
                pk.add(f, here, "expected {value, reference}")
                continue
            _unknown_keys(pk, f, here, v, ("value", "reference"))
            pk.cited(f, here, v, "reference")
            values.append((on, eff, v["value"]))
        pk.parameters[name] = values


def _shape_of(name: str) -> Checker | None:
    if name.startswith(PENALTY_CAP):
        return penalty_cap
    if name in PARAMETERS:
        return PARAMETERS[name].check
    for suffixes, shape in SUFFIXES:
        if name.endswith(suffixes):
            return shape
    return None


def _check_values(pk: _Pack) -> None:
    """Each value against the shape the engine reads it in, and what the rules need."""
    f = "parameters.yaml"
    for name, values in pk.parameters.items():
        shapes = [(f, None, s) for s in [_shape_of(name)] if s is not None]
        shapes += pk.uses.get(name, [])
        seen: set[str] = set()
        for _on, eff, value in values:
            key = name if len(values) == 1 else f"{name}.values.{eff}"
            for _file, _key, shape in shapes:
                for message in shape(value, pk):
                    if message not in seen:
                        seen.add(message)
                        pk.add(f, key, message)
        if name.startswith(PENALTY_CAP):
            units = {repr(v.get("per")) for _, _, v in values if isinstance(v, dict)}
            if len(units) > 1:
                pk.add(
                    f,
                    name,
                    f"per changes over time ({_listed(map(str, units))}): the engine counts "
                    "every order of the class in its first value's unit",
                )
    for name, spec in PARAMETERS.items():
        wanted = [r for r in spec.needed_by if r in pk.rules]
        if not (spec.always or wanted):
            continue
        if spec.when is not None:
            other, value = spec.when
            if value not in [v for _, _, v in pk.parameters.get(other, [])]:
                continue
            wanted = [f"{wanted[0]} (with {other} {value})"]
        why = (
            "the engine reads it on every evaluation"
            if spec.always
            else (f"rule {wanted[0]} reads it")
        )
        values = pk.parameters.get(name)
        if not values:
            pk.add(f, name, f"missing: {why}")
            continue
        first = min((on for on, _, _ in values if on is not None), default=None)
        if first is not None and pk.effective is not None and first > pk.effective:
            pk.add(
                f,
                name,
                f"in force only from {first}, after the pack takes effect ({pk.effective}): {why}",
            )
    caps = [n for n in pk.parameters if n.startswith(PENALTY_CAP)]
    for name in caps:
        cls = name[len(PENALTY_CAP) :]
        if not re.fullmatch(r"[a-z][a-z0-9_]*", cls):
            pk.add(f, name, f"class {cls!r}: lower-case letters, digits and underscores")


# checklist.yaml


def _check_checklist(pk: _Pack, data: Any) -> int:
    f = "checklist.yaml"
    if data is None:
        return 0
    if not isinstance(data, list):
        pk.add(f, "", "expected a list of {item, question, citation}")
        return 0
    seen: dict[str, int] = {}
    for i, entry in enumerate(data):
        here = f"[{i}]"
        if not isinstance(entry, dict):
            pk.add(f, here, "expected {item, question, citation}")
            continue
        item = entry.get("item")
        if _text(item):
            here = f"[{i}] {item}"
            if item in seen:
                pk.add(f, here, f"item {item!r} is already item [{seen[item]}]")
            seen.setdefault(item, i)
            if item in pk.rules:
                pk.add(f, here, f"{item!r} is also a rule of pack.yaml")
        else:
            pk.add(f, here, "no item id")
        _unknown_keys(pk, f, here, entry, ("item", "question", "citation"))
        if not _text(entry.get("question")):
            pk.add(f, here, "no question")
        pk.cited(f, here, entry)
    return len(seen)


# enforcement.yaml


def _field_kind(spec: Any) -> tuple[str | None, tuple[str, ...]]:
    if not isinstance(spec, str):
        return None, ()
    kind = spec.rstrip("?")
    if kind.startswith("choice(") and kind.endswith(")"):
        choices = tuple(c.strip() for c in kind[7:-1].split(",") if c.strip())
        return ("choice" if choices else None), choices
    return (kind if kind in _FIELD_KINDS else None), ()


def _check_enforcement(pk: _Pack, data: Any) -> int:
    f = "enforcement.yaml"
    if data is None:
        return 0
    if not isinstance(data, dict):
        pk.add(f, "", "expected {actions, procedure}")
        return 0
    _unknown_keys(pk, f, "", data, ("actions", "procedure"))
    actions = _mapping(pk, f, "actions", data.get("actions"), "action types")
    procedure = data.get("procedure")
    sequence: tuple = ()
    if isinstance(procedure, dict) and isinstance(procedure.get("sequence"), list):
        sequence = tuple(str(level) for level in procedure["sequence"])
    caps = {
        n[len(PENALTY_CAP) :]: values
        for n, values in pk.parameters.items()
        if n.startswith(PENALTY_CAP)
    }
    for type_, entry in actions.items():
        _check_action(pk, str(type_), entry, sequence, procedure is not None, caps)
    if procedure is not None:
        _check_procedure(pk, procedure, actions)
    return len(actions)


def _check_action(
    pk: _Pack, type_: str, entry: Any, sequence: tuple, has_procedure: bool, caps: dict
) -> None:
    f = "enforcement.yaml"
    here = f"actions.{type_}"
    if not isinstance(entry, dict):
        pk.add(f, here, "expected {title, citation, date_field, fields, deadlines, checks}")
        return
    _unknown_keys(pk, f, here, entry, ACTION_KEYS)
    if not _text(entry.get("title")):
        pk.add(f, here, "no title")
    pk.cited(f, here, entry)
    fields = _action_fields(pk, here, entry)
    deadlines = entry.get("deadlines") or []
    names: set[str] = _Names()
    kinds_of: dict[str, set[str]] = _Fields()
    if not isinstance(deadlines, list):
        pk.add(f, f"{here}.deadlines", "expected a list of deadlines")
        deadlines = []
    for i, d in enumerate(deadlines):
        dname = _check_deadline(pk, f"{here}.deadlines[{i}]", d, fields, names, sequence)
        if dname is not None:
            names.add(dname)
            kinds_of.setdefault(dname, set()).add(str(d.get("kind")))
    appeal = entry.get("appeal")
    if appeal is not None:
        _check_appeal(pk, f"{here}.appeal", appeal, fields, names)
    checks = _mapping(pk, f, f"{here}.checks", entry.get("checks"), "check names to settings")
    for name, cfg in checks.items():
        _check_check(pk, f"{here}.checks.{name}", str(name), cfg, fields, names, kinds_of)
    _check_penalty_fields(pk, here, fields, "penalty_cap" in checks, caps)
    if has_procedure and "issued_by" in fields and fields["issued_by"][0] == "choice":
        for level in fields["issued_by"][1]:
            if level not in sequence:
                pk.add(
                    f,
                    f"{here}.fields.issued_by",
                    f"{level!r} is not a level of procedure.sequence "
                    f"({', '.join(map(str, sequence))})",
                )


def _action_fields(pk: _Pack, here: str, entry: dict) -> dict:
    """The action's fields, name -> (kind, choices), and its date field checked."""
    f = "enforcement.yaml"
    fields: dict[str, tuple[str | None, tuple[str, ...]]] = _Fields()
    for name, spec in _mapping(
        pk, f, f"{here}.fields", entry.get("fields"), "field names to kinds"
    ).items():
        kind, choices = _field_kind(spec)
        if kind is None:
            pk.add(
                f,
                f"{here}.fields.{name}",
                f"unknown kind {spec!r} ({', '.join(_FIELD_KINDS)}, choice(a, b); "
                "? marks optional)",
            )
        fields[str(name)] = (kind, choices)
    date_field = entry.get("date_field")
    if date_field not in fields:
        pk.add(f, f"{here}.date_field", f"{date_field!r} is not one of its fields")
    elif fields[date_field][0] not in ("date", "datetime"):
        pk.add(f, f"{here}.date_field", f"{date_field!r} is not a date or datetime field")
    return fields


def _check_deadline(
    pk: _Pack, at: str, d: Any, fields: dict, names: set, sequence: tuple
) -> str | None:
    """One deadline of an action; its name when it has one."""
    f = "enforcement.yaml"
    dname = d.get("name") if isinstance(d, dict) else None
    dhere = at + (f" {dname}" if _text(dname) else "")
    if not isinstance(d, dict):
        pk.add(f, dhere, "expected {name, kind, from, add?, roll?, citation}")
        return None
    _unknown_keys(pk, f, dhere, d, DEADLINE_KEYS)
    if not _text(dname):
        pk.add(f, f"{dhere}.name", "required")
    if d.get("kind") not in DEADLINE_KINDS:
        pk.add(f, f"{dhere}.kind", f"{d.get('kind')!r} is not one of {', '.join(DEADLINE_KINDS)}")
    start = d.get("from")
    if start in fields:
        if fields[start][0] not in DATE_KINDS:
            pk.add(f, f"{dhere}.from", f"{start!r} is a {fields[start][0]} field, not a date")
    elif start not in names:
        pk.add(
            f,
            f"{dhere}.from",
            f"{start!r} is neither a date field of the action nor an earlier deadline",
        )
    if d.get("add") is not None:
        pk.use(d["add"], f, f"{dhere}.add", duration)
    for key in ("roll", "unless_paid"):
        if key in d and not isinstance(d[key], bool):
            pk.add(f, f"{dhere}.{key}", f"{d[key]!r} is not true or false")
    if d.get("unless_paid") and "paid_on" not in fields:
        pk.add(f, f"{dhere}.unless_paid", "the action has no paid_on field")
    pk.cited(f, dhere, d)
    _check_when(pk, dhere, d.get("when") or {}, fields)
    ext = d.get("extension")
    if ext is not None:
        _check_extension(pk, f"{dhere}.extension", ext, fields)
    _check_appeal_to(pk, dhere, d, sequence)
    return dname if _text(dname) else None


def _check_when(pk: _Pack, dhere: str, when: Any, fields: dict) -> None:
    f = "enforcement.yaml"
    if not isinstance(when, dict):
        pk.add(f, f"{dhere}.when", "expected {field: value}")
        return
    for key, value in when.items():
        if key not in fields:
            pk.add(f, f"{dhere}.when.{key}", "not a field of the action")
        elif fields[key][0] == "choice" and value not in fields[key][1]:
            pk.add(
                f,
                f"{dhere}.when.{key}",
                f"{value!r} is not one of its choices ({', '.join(fields[key][1])})",
            )


def _check_appeal_to(pk: _Pack, dhere: str, d: dict, sequence: tuple) -> None:
    f = "enforcement.yaml"
    level = d.get("appeal_to")
    if level is None:
        return
    allowed = tuple(dict.fromkeys((*sequence, *APPEAL_LEVELS)))
    if level not in allowed:
        pk.add(
            f,
            f"{dhere}.appeal_to",
            f"{level!r} is not a level of the procedure ({', '.join(allowed)})",
        )
    if d.get("kind") != "deadline":
        pk.add(f, f"{dhere}.appeal_to", "only a deadline (the last day to appeal) goes to a level")


def _check_penalty_fields(pk: _Pack, here: str, fields: dict, capped: bool, caps: dict) -> None:
    """A penalty order names a class and counts it in its cap's unit."""
    f = "enforcement.yaml"
    penalty_fields = [n for n, (k, _) in fields.items() if k == "penalty_class"]
    if penalty_fields and not caps:
        pk.add(
            f,
            f"{here}.fields.{penalty_fields[0]}",
            "a penalty_class field, but parameters.yaml has no enforcement.penalty_cap.<class>",
        )
    if not capped:
        return
    if not penalty_fields or "class" not in fields:
        pk.add(f, f"{here}.checks.penalty_cap", "the action needs a field class: penalty_class")
    if "amount" not in fields:
        pk.add(f, f"{here}.checks.penalty_cap", "the action needs a field amount: money")
    for cls, values in sorted(caps.items()):
        for _, _, v in values:
            if not isinstance(v, dict) or v.get("imposed_by") == "court":
                continue
            unit = v.get("per")
            if unit in PENALTY_UNITS and unit not in fields:
                pk.add(
                    f,
                    f"{here}.fields",
                    f"class {cls} is counted in {unit}: the action needs a field "
                    f"{unit}: count? (or quantity?)",
                )
            break


def _check_extension(pk: _Pack, here: str, ext: Any, fields: dict) -> None:
    f = "enforcement.yaml"
    if not isinstance(ext, dict):
        pk.add(f, here, "expected {requested, within, from, add, roll?}")
        return
    _unknown_keys(pk, f, here, ext, EXTENSION_KEYS)
    for key in ("requested", "from"):
        if ext.get(key) not in fields:
            pk.add(f, f"{here}.{key}", f"{ext.get(key)!r} is not a field of the action")
    for key in ("within", "add"):
        pk.use(ext.get(key), f, f"{here}.{key}", duration)
    if "roll" in ext and not isinstance(ext["roll"], bool):
        pk.add(f, f"{here}.roll", f"{ext['roll']!r} is not true or false")


def _check_appeal(pk: _Pack, here: str, appeal: Any, fields: dict, names: set) -> None:
    f = "enforcement.yaml"
    if not isinstance(appeal, dict):
        pk.add(f, here, "expected {deadline, filed, decided, final}")
        return
    _unknown_keys(pk, f, here, appeal, ("deadline", "filed", "decided", "final"))
    for key in ("filed", "decided"):
        if appeal.get(key) not in fields:
            pk.add(f, f"{here}.{key}", f"{appeal.get(key)!r} is not a field of the action")
        elif fields[appeal[key]][0] != "date":
            pk.add(f, f"{here}.{key}", f"{appeal[key]!r} is not a date field")
    for key in ("deadline", "final"):
        if appeal.get(key) not in names:
            pk.add(f, f"{here}.{key}", f"{appeal.get(key)!r} is not a deadline of the action")


def _check_check(
    pk: _Pack, here: str, name: str, cfg: Any, fields: dict, names: set, kinds_of: dict
) -> None:
    f = "enforcement.yaml"
    if name not in CHECKS:
        pk.add(f, here, f"unknown check (the engine's: {', '.join(CHECKS)})")
        return
    if not isinstance(cfg, dict):
        pk.add(f, here, "expected a mapping of settings")
        return
    _unknown_keys(pk, f, here, cfg, CHECKS[name])
    for key in REQUIRED_CHECK_KEYS[name]:
        if key not in cfg:
            pk.add(f, f"{here}.{key}", "required")
    for key, value in cfg.items():
        what, shape = CHECKS[name].get(key, (None, None))
        at = f"{here}.{key}"
        if what == "field" and value not in fields:
            pk.add(f, at, f"{value!r} is not a field of the action")
        elif what == "deadline" and value not in names:
            pk.add(f, at, f"{value!r} is not a deadline of the action")
        elif what == "rule" and value not in pk.rules:
            pk.add(
                f, at, f"{value!r} is not a rule of pack.yaml (a finding must have its citation)"
            )
        elif what == "param":
            pk.use(value, f, at, shape)
        elif what == "citation" and not _text(value):
            pk.add(f, at, "no citation")
        elif what == "label" and not _text(value):
            pk.add(f, at, "expected the id the accrual is reported under")
        elif what == "continuance":
            if not isinstance(value, dict) or set(value) != {"field", "limit"}:
                pk.add(f, at, "expected {field, limit}")
                continue
            if value["field"] not in fields:
                pk.add(f, f"{at}.field", f"{value['field']!r} is not a field of the action")
            pk.use(value["limit"], f, f"{at}.limit", duration)
    window = cfg.get("window")
    bounds = kinds_of[window] if name == "hearing_window" and window in kinds_of else {"deadline"}
    if window in kinds_of and not bounds & {"earliest", "deadline"}:
        pk.add(f, f"{here}.window", "the window needs an earliest or a deadline of that name")


def _check_procedure(pk: _Pack, data: Any, actions: dict) -> None:
    f = "enforcement.yaml"
    actions = _Fields(actions)
    if not isinstance(data, dict):
        pk.add(f, "procedure", "expected {citation, sequence, levels, on_appeal, judicial_bar}")
        return
    _unknown_keys(pk, f, "procedure", data, PROCEDURE_KEYS)
    pk.cited(f, "procedure", data)
    sequence = data.get("sequence")
    if not isinstance(sequence, list) or not sequence:
        pk.add(f, "procedure.sequence", "expected the list of levels, lowest first")
        sequence = []
    elif not all(_text(level) for level in sequence):
        pk.add(f, "procedure.sequence", "each level is a name (inspector, manager, ...)")
    elif len(set(sequence)) < len(sequence):
        pk.add(f, "procedure.sequence", "a level is listed twice")
    levels = _mapping(pk, f, "procedure.levels", data.get("levels"), "action types to levels")
    for type_, level in levels.items():
        if type_ not in actions:
            pk.add(f, f"procedure.levels.{type_}", "not an action type of the pack")
        if level not in sequence:
            pk.add(f, f"procedure.levels.{type_}", f"{level!r} is not in the sequence")
    on_appeal = data.get("on_appeal") or []
    if not isinstance(on_appeal, list):
        pk.add(f, "procedure.on_appeal", "expected a list of action types")
        on_appeal = []
    for type_ in on_appeal:
        if type_ not in actions:
            pk.add(f, "procedure.on_appeal", f"{type_!r} is not an action type of the pack")
    first = data.get("first_notice")
    if first is not None and first not in actions:
        pk.add(f, "procedure.first_notice", f"{first!r} is not an action type of the pack")
    for key in ("judicial_bar", "administrative_bar"):
        if data.get(key) is not None:
            pk.cited(f, f"procedure.{key}", data[key])


# application.yaml and letters/


def _check_application(pk: _Pack, data: Any) -> None:
    """The permit application's fields (read by fogkeeper/permits/requirements.py)."""
    from .application import ALWAYS, DETAILS

    f = "application.yaml"
    if data is None:
        return
    if not isinstance(data, dict):
        pk.add(f, "", "expected {reference, fields, in_lieu?}")
        return
    _unknown_keys(pk, f, "", data, ("reference", "fields", "in_lieu"))
    if not _text(data.get("reference")):
        pk.add(f, "reference", "no reference (the section that says what the application holds)")
    fields = _mapping(
        pk, f, "fields", data.get("fields"), "application fields to {required, reference}"
    )
    for name, entry in fields.items():
        here = f"fields.{name}"
        if name not in DETAILS or name == "building_permit_reference":
            pk.add(f, here, "not a field of a permit application")
        if not isinstance(entry, dict):
            pk.add(f, here, "expected {required, reference, in_lieu?}")
            continue
        _unknown_keys(pk, f, here, entry, ("required", "reference", "in_lieu"))
        pk.cited(f, here, entry, "reference")
        for key in ("required", "in_lieu"):
            if key in entry and not isinstance(entry[key], bool):
                pk.add(f, f"{here}.{key}", f"{entry[key]!r} is not true or false")
    for name in ALWAYS:
        entry = fields.get(name)
        if not isinstance(entry, dict) or entry.get("required") is not True:
            pk.add(f, f"fields.{name}", "must be asked and required")
    in_lieu = data.get("in_lieu")
    if in_lieu:
        if not isinstance(in_lieu, dict) or in_lieu.get("field") not in DETAILS:
            pk.add(
                f, "in_lieu.field", "expected the application field of the document shown in lieu"
            )
        else:
            if in_lieu["field"] in fields:
                pk.add(f, "in_lieu.field", f"{in_lieu['field']} is also a field of the form")
            pk.cited(f, "in_lieu", in_lieu, "reference")
    elif any(isinstance(e, dict) and e.get("in_lieu") for e in fields.values()):
        pk.add(f, "in_lieu", "fields are marked in_lieu but no in_lieu document is named")


# Steps the application takes that send a letter without being a pack action (the notice of
# a hearing; the permit itself and the notice of its modification, permits.documents).
LETTER_STEPS = ("hearing", "permit", "permit_modification_notice")


def _check_letters(pk: _Pack, actions: Any) -> None:
    folder = pk.folder / "letters"
    if not folder.is_dir():
        return
    types = set(actions) if isinstance(actions, dict) else set()
    for path in sorted(folder.glob("*.html")):
        stem = path.stem
        if stem.startswith("_") or stem in ("default", "base", *LETTER_STEPS) or stem in types:
            continue
        pk.add(
            f"letters/{path.name}",
            "",
            f"{stem!r} is not an action type of the pack (nor default, base, hearing, "
            "permit, permit_modification_notice or a _partial)",
        )


# The whole pack


def check_pack(folder: Path | str) -> PackCheck:
    """Every problem of one pack folder (none: the pack loads and the engine can read it)."""
    pk = _Pack(Path(folder))
    result = PackCheck(pk.folder)
    meta = pk.read("pack.yaml", required=True)
    if meta is None and not (pk.folder / "pack.yaml").exists():
        result.problems = pk.problems
        return result
    _check_meta(pk, meta)
    if isinstance(meta, dict) and isinstance(meta.get("id"), str):
        result.pack_id = meta["id"]
    params = pk.read("parameters.yaml")
    _check_parameters(pk, params)
    result.checklist = _check_checklist(pk, pk.read("checklist.yaml"))
    enforcement = pk.read("enforcement.yaml")
    result.actions = _check_enforcement(pk, enforcement)
    _check_values(pk)
    _check_rules_raised(pk, enforcement)
    application = pk.read("application.yaml")
    if application is None and (pk.folder / "application.yaml").exists():
        application = (
            {} if not any(p.file.endswith("application.yaml") for p in pk.problems) else None
        )
    _check_application(pk, application)
    _check_letters(
        pk, (enforcement or {}).get("actions") if isinstance(enforcement, dict) else None
    )
    _check_placeholders(pk)
    result.rules = len(pk.rules)
    result.parameters = len(pk.parameters)
    if not pk.problems:
        try:
            load_pack(pk.folder)
        except PackError as e:
            pk.problems.append(PackProblem(pk.folder.name, "", f"the loader refuses it: {e}"))
    order = {name: i for i, name in enumerate((*FILES, "application.yaml"))}
    result.problems = sorted(
        pk.problems, key=lambda p: order.get(p.file.partition("/")[2], len(order))
    )
    return result


def _check_placeholders(pk: _Pack) -> None:
    """A "TODO" left by `fogkeeper packs new` is a value the ordinance has not filled in."""
    for file, lines in pk.lines.items():
        path = pk.folder / file
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        at = {line: key for key, line in sorted(lines.items(), key=lambda kv: len(kv[0]))}
        for n, line in enumerate(text.splitlines(), start=1):
            value = line.split("#", 1)[0]
            if "TODO" in value:
                pk.problems.append(
                    PackProblem(
                        f"{pk.folder.name}/{file}",
                        at.get(n, ""),
                        "a placeholder of the new pack: put the ordinance's words here",
                        n,
                    )
                )


def _check_rules_raised(pk: _Pack, enforcement: Any) -> None:
    """A rule of pack.yaml that nothing raises is a typo or a rule of another engine."""
    named: set[str] = set()
    actions = enforcement.get("actions") if isinstance(enforcement, dict) else None
    for entry in (actions or {}).values() if isinstance(actions, dict) else ():
        checks = entry.get("checks") if isinstance(entry, dict) else None
        for name, cfg in (checks or {}).items() if isinstance(checks, dict) else ():
            if isinstance(cfg, dict):
                for key, (what, _) in CHECKS.get(name, {}).items():
                    if what == "rule" and isinstance(cfg.get(key), str):
                        named.add(cfg[key])
    for rule in sorted(pk.rules - ENGINE_RULES - named):
        pk.add(
            "pack.yaml",
            f"rules.{rule}",
            "no check raises this rule (the engine's rules are in RULES.md; an "
            "enforcement rule must be named by a check in enforcement.yaml)",
        )


def pack_folders_in(path: Path | str) -> list[Path]:
    """The pack folders at `path`: the folder itself when it holds pack.yaml, else its
    subfolders that do (a folder of packs, as FOGKEEPER_PACKS names)."""
    path = Path(path)
    if (path / "pack.yaml").exists() or not path.is_dir():
        return [path]
    found = sorted(p for p in path.iterdir() if (p / "pack.yaml").exists())
    return found or [path]


def check_packs(paths: Iterable[Path | str]) -> list[PackCheck]:
    """Each pack at `paths`, plus pack ids that clash among them or with a bundled pack."""
    results = [check_pack(folder) for p in paths for folder in pack_folders_in(p)]
    bundled = {}
    for folder in pack_folders_in(PACKS_DIR):
        try:
            meta = _load_yaml(folder / "pack.yaml")
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(meta, dict) and isinstance(meta.get("id"), str):
            bundled[meta["id"]] = folder.resolve()
    seen: dict[str, Path] = {}
    for r in results:
        if r.pack_id is None:
            continue
        here = r.folder.resolve()
        where = f"{r.folder.name}/pack.yaml"
        line = key_lines(r.folder / "pack.yaml").get("id")
        if r.pack_id in bundled and bundled[r.pack_id] != here:
            r.problems.append(
                PackProblem(
                    where,
                    "id",
                    f"{r.pack_id!r} is the id of the bundled pack {bundled[r.pack_id]}: "
                    "they cannot be loaded together",
                    line,
                )
            )
        if r.pack_id in seen and seen[r.pack_id] != here:
            r.problems.append(
                PackProblem(where, "id", f"{r.pack_id!r} is also the id of {seen[r.pack_id]}", line)
            )
        seen.setdefault(r.pack_id, here)
    return results

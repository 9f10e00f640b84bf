"""The shapes a parameter's value may have: each checker returns the problems of one value,
as messages (empty: fine)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, TypeGuard

from ..calendar import Duration
from ..formula import FormulaError, parse
from ..packmodel import IMPOSED_BY, PENALTY_UNITS
from ..records import DESIGN_FIELDS
from .common import CALENDAR_UNITS, Checker, _Pack

# Value shapes. Each checker returns the problems of one value, as messages (empty: fine).


def _is_number(v: Any) -> TypeGuard[int | float]:
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
    always: bool = False  # read on every evaluation
    when: tuple[str, Any] | None = None  # needed only while that parameter has that value


SIZING_KEYS = ("formula", "field", "inputs", "constants")


def sizing_rules(v: Any, pack: _Pack) -> list[str]:
    """`gcd.sizing`: device kind -> {formula, field?, inputs, constants?}; each name the
    formula reads is an input the device records or a constant of the pack."""
    if not isinstance(v, dict):
        return [f"{v!r} is not a mapping of device kinds to {{formula, inputs, constants}}"]
    out = []
    for kind, spec in v.items():
        out += pack.unknown_kind(kind)
        if not isinstance(spec, dict) or "formula" not in spec:
            out.append(f"{kind}: expected {{formula, field, inputs, constants}}")
            continue
        out += [f"{kind}.{k}: unknown key" for k in spec if k not in SIZING_KEYS]
        out += _sizing_spec(kind, spec)
    return out


def _sizing_spec(kind: str, spec: dict[Any, Any]) -> list[str]:
    out = []
    field = spec.get("field", "capacity_gallons")
    if field not in DESIGN_FIELDS:
        out.append(f"{kind}.field: {field!r} is not a design field ({', '.join(DESIGN_FIELDS)})")
    inputs, constants = spec.get("inputs") or {}, spec.get("constants") or {}
    if not isinstance(inputs, dict) or not all(isinstance(t, str) for t in inputs.values()):
        out.append(f"{kind}.inputs: expected input names with their labels ({{seats: Seats}})")
        inputs = {}
    if not isinstance(constants, dict):
        out.append(f"{kind}.constants: expected names with numbers ({{gallons_per_meal: 5}})")
        constants = {}
    for name, x in constants.items():
        if not _is_number(x):
            out.append(f"{kind}.constants.{name}: {x!r} is not a number")
        if name in inputs:
            out.append(f"{kind}.constants.{name}: also an input: name it once")
    try:
        formula = parse(spec["formula"])
    except FormulaError as e:
        return [*out, f"{kind}.formula: {e}"]
    for name in sorted(formula.names - set(inputs) - set(constants)):
        out.append(f"{kind}.formula: {name!r} is neither one of its inputs nor a constant")
    return out


def hauler_certification(v: Any, pack: _Pack) -> list[str]:
    """`hauler.certification`: {required, name}: whether the ordinance requires haulers to
    hold a certification beside their licence, and its name in the ordinance's words."""
    if not isinstance(v, dict):
        return [f"{v!r} is not {{required, name}}"]
    out = [f"{k}: unknown key" for k in v if k not in ("required", "name")]
    if not isinstance(v.get("required"), bool):
        out.append(f"required: {v.get('required')!r} is not true or false")
    name = v.get("name")
    if v.get("required") is True and (not isinstance(name, str) or not name.strip()):
        out.append("name: required: the certification's name in the ordinance's words")
    elif name is not None and not isinstance(name, str):
        out.append(f"name: {name!r} is not text")
    return out

"""Reading an enforcement action's fields against its pack's action spec."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from .errors import Problem
from .packmodel import PENALTY_UNITS
from .records import Action, Milestone


def _to_date(v: Any) -> date:
    if type(v) is date:
        return v
    if isinstance(v, str) and len(v) == 10 and v[4] == "-" and v[7] == "-":
        try:
            return date.fromisoformat(v)
        except ValueError:
            pass
    raise ValueError(f"not a date: {v!r}")


def _to_datetime(v: Any) -> datetime:
    if isinstance(v, datetime):
        return v
    if isinstance(v, str) and len(v) >= 16 and v[10] == "T":
        try:
            return datetime.fromisoformat(v)
        except ValueError:
            pass
    raise ValueError(f"not a date-time: {v!r} (expected YYYY-MM-DDTHH:MM:SS)")


def _to_money(v: Any) -> Decimal:
    if isinstance(v, bool) or not isinstance(v, int | float | Decimal):
        raise ValueError(f"not an amount of dollars: {v!r}")
    try:
        amount = Decimal(str(v))
    except InvalidOperation:
        raise ValueError(f"not an amount of dollars: {v!r}") from None
    if not amount.is_finite() or amount < 0:
        raise ValueError(f"must be a non-negative amount of dollars: {v!r}")
    return amount


def _to_id(v: Any) -> str:
    if not isinstance(v, str) or not v.strip():
        raise ValueError(f"not an id (a non-empty string): {v!r}")
    return v


def _count(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise ValueError(f"not a whole number of zero or more: {v!r}")
    return v


def _quantity(v: Any) -> Decimal:
    return _to_money(v)


def _flag(v: Any) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"not true or false: {v!r}")
    return v


def _text(v: Any) -> str:
    if not isinstance(v, str):
        raise ValueError(f"not text: {v!r}")
    return v


_READERS = {
    "text": _text,
    "date": _to_date,
    "planned_date": _to_date,
    "datetime": _to_datetime,
    "money": _to_money,
    "flag": _flag,
    "count": _count,
    "quantity": _quantity,
    "action": _to_id,
}


def _read_milestones(value: Any, path: str, problems: list[Problem]) -> tuple[Milestone, ...]:
    if not isinstance(value, list):
        problems.append(Problem(path, "expected a list of {id, due, met_on?}"))
        return ()
    out, seen = [], set()
    for i, m in enumerate(value):
        here = f"{path}[{i}]"
        if not isinstance(m, dict):
            problems.append(Problem(here, "expected {id, due, met_on?}"))
            continue
        for key in m:
            if key not in ("id", "due", "met_on"):
                problems.append(Problem(f"{here}.{key}", "unknown field"))
        parsed: dict[str, Any] = {}
        for key, reader, required in (("id", _to_id, True), ("due", _to_date, True)):
            if m.get(key) is None:
                if required:
                    problems.append(Problem(f"{here}.{key}", "required"))
                continue
            try:
                parsed[key] = reader(m[key])
            except ValueError as e:
                problems.append(Problem(f"{here}.{key}", str(e)))
        met_on = None
        if m.get("met_on") is not None:
            try:
                met_on = _to_date(m["met_on"])
            except ValueError as e:
                problems.append(Problem(f"{here}.met_on", str(e)))
        if "id" in parsed:
            if parsed["id"] in seen:
                problems.append(Problem(f"{here}.id", f"duplicate id {parsed['id']!r}"))
            seen.add(parsed["id"])
        if "id" in parsed and "due" in parsed:
            out.append(Milestone(parsed["id"], parsed["due"], met_on))
    return tuple(out)


def read_action(spec: Any, raw: Any, path: str, pack: Any, problems: list[Problem]) -> Any:
    """Type the fields of `raw` by `spec`; append a Problem for each bad field."""
    before = len(problems)
    extra = raw.model_extra or {}
    for name in extra:
        if name not in spec.fields:
            problems.append(Problem(f"{path}.{name}", f"unknown field for {spec.type}"))
    fields: dict[str, Any] = {}
    milestones: tuple[Milestone, ...] = ()
    classes = pack.administrative_classes()
    for name, fs in spec.fields.items():
        value = extra.get(name)
        if value is None:
            if fs.required:
                problems.append(Problem(f"{path}.{name}", f"required for {spec.type}"))
            continue
        reader = _READERS.get(fs.kind)
        if reader is not None:
            try:
                fields[name] = reader(value)
            except ValueError as e:
                problems.append(Problem(f"{path}.{name}", str(e)))
        elif fs.kind == "milestones":
            milestones = _read_milestones(value, f"{path}.{name}", problems)
        elif fs.kind == "choice":
            if value not in fs.choices:
                allowed = " or ".join(fs.choices)
                problems.append(
                    Problem(f"{path}.{name}", f"{value!r} is not allowed in {pack.id} ({allowed})")
                )
            else:
                fields[name] = value
        elif fs.kind != "penalty_class":
            raise KeyError(f"no reader for a field of kind {fs.kind!r}")
        elif _penalty_class(value, f"{path}.{name}", pack, classes, problems):
            fields[name] = value
    if "penalty_cap" in spec.checks and fields.get("class") in classes:
        _check_quantity(fields, classes[fields["class"]], path, problems)
    _check_continuance(spec, fields, path, problems)
    if len(problems) > before:
        return None
    return Action(id=raw.id, type=raw.type, fields=fields, milestones=milestones)


def _penalty_class(value: Any, here: str, pack: Any, classes: Any, problems: list[Any]) -> bool:
    """Whether `value` is a class a penalty order may impose; a Problem says why not."""
    if value in pack.court_classes():
        problems.append(
            Problem(
                here,
                f"{value!r} is a penalty class a court imposes in {pack.id}, "
                "not an administrative penalty order",
            )
        )
        return False
    if value not in classes:
        allowed = ", ".join(sorted(classes))
        problems.append(Problem(here, f"{value!r} is not a penalty class of {pack.id} ({allowed})"))
        return False
    return True


def _check_quantity(fields: dict[Any, Any], unit: str, path: str, problems: list[Problem]) -> None:
    """A penalty is counted in its class's unit, and in no other (RULES.md 11.3)."""
    if unit not in fields and f"{path}.{unit}" not in {p.path for p in problems}:
        problems.append(
            Problem(f"{path}.{unit}", f"required: class {fields['class']} is counted in {unit}")
        )
    for other in PENALTY_UNITS:
        if other != unit and other in fields:
            problems.append(
                Problem(
                    f"{path}.{other}",
                    f"class {fields['class']} is counted in {unit}, not {other}",
                )
            )


def _check_continuance(
    spec: Any, fields: dict[Any, Any], path: str, problems: list[Problem]
) -> None:
    """A hearing is continued from its date to a later one (RULES.md 11.5)."""
    window = spec.checks.get("hearing_window") or {}
    heard = window.get("field")
    if heard is None or "continued_to" not in fields:
        return
    if fields.get(heard) is None:
        problems.append(Problem(f"{path}.continued_to", f"a continuance needs {heard}"))
    elif fields["continued_to"] < fields[heard]:
        problems.append(
            Problem(f"{path}.continued_to", f"{fields['continued_to']} is before {heard}")
        )

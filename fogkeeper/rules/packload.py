"""Loading one pack folder into a `Pack`.

The folder holds `pack.yaml` (who, when, titles, holidays, rules, and the titles of the
obligations the engine schedules), `parameters.yaml` (every number of the ordinance, keyed
by the date it took effect, each with its reference), `checklist.yaml` and
`enforcement.yaml` (action types, their fields and the deadlines they set). Loading refuses
with a `PackError` a value without a citation, or of a shape the engine cannot use.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from ..safeload import Refused, load_yaml
from .calendar import WEEKDAYS, Duration, HolidayRule, LegalCalendar
from .errors import PackError
from .packmodel import (
    APPEAL_LEVELS,
    DEADLINE_KINDS,
    IMPOSED_BY,
    NO_STATE_PACK,
    PENALTY_UNITS,
    SEVERITIES,
    ActionSpec,
    ChecklistItem,
    DeadlineSpec,
    FieldSpec,
    Pack,
    Parameter,
    ParameterValue,
    ReportKind,
    Requirement,
    RuleSpec,
    Vocab,
    state_pack_names,
)


def _load_yaml(path: Path) -> Any:
    """The YAML of `path`; Refused (fogkeeper.documents) when nested too deep or when its
    aliases repeat too much."""
    return load_yaml(path.read_text(encoding="utf-8"))


def _cited(where: str, entry: Any, key: str = "reference") -> str:
    text = entry.get(key) if isinstance(entry, dict) else None
    if not isinstance(text, str) or not text.strip():
        raise PackError(f"{where}: no {key} (every value of an ordinance must cite its section)")
    return text


def _as_date(where: str, value: Any) -> date:
    if type(value) is date:
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise PackError(f"{where}: not a date: {value!r}") from None


def _dated_value(here: str, eff: Any, v: dict[Any, Any]) -> ParameterValue:
    """A dated value; one set by a council resolution is cited as that resolution adopted
    under the section that lets the council set it."""
    reference = _cited(here, v)
    resolution = v.get("resolution")
    if resolution is None:
        return ParameterValue(_as_date(here, eff), v["value"], reference)
    if not isinstance(resolution, str) or not resolution.strip():
        raise PackError(f"{here}: resolution: expected its number, as 'Resolution 2024-17'")
    cited = f"{resolution.strip()}, adopted under {reference}"
    return ParameterValue(_as_date(here, eff), v["value"], cited, resolution.strip())


def _load_parameters(where: str, data: Any) -> dict[str, Parameter]:
    if not isinstance(data, dict):
        raise PackError(f"{where}: expected a mapping of parameters")
    params = {}
    for name, entry in data.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("values"), dict):
            raise PackError(f"{where}: {name}: expected 'values' keyed by effective date")
        values = []
        for eff, v in entry["values"].items():
            here = f"{where}: {name} ({eff})"
            if not isinstance(v, dict) or "value" not in v:
                raise PackError(f"{here}: expected {{value, reference}}")
            values.append(_dated_value(here, eff, v))
        if not values:
            raise PackError(f"{where}: {name}: no values")
        values.sort(key=lambda pv: pv.effective)
        params[name] = Parameter(name, str(entry.get("description", "")), tuple(values))
    return params


def _load_holidays(where: str, data: Any, tz: str) -> LegalCalendar:
    if not isinstance(data, dict):
        raise PackError(f"{where}: holidays: expected a mapping")
    _cited(f"{where}: holidays", data)
    rules = []
    for i, h in enumerate(data.get("list") or []):
        here = f"{where}: holidays.list[{i}]"
        try:
            weekday = h.get("weekday")
            rules.append(
                HolidayRule(
                    name=h["name"],
                    month=int(h["month"]),
                    day=h.get("day"),
                    weekday=WEEKDAYS[weekday] if weekday else None,
                    nth=h.get("nth"),
                    offset_days=int(h.get("offset_days", 0)),
                )
            )
        except (KeyError, TypeError, ValueError) as e:
            raise PackError(f"{here}: {e}") from None
    observed = data.get("observed", {})
    try:
        return LegalCalendar(
            rules, int(observed.get("saturday", -1)), int(observed.get("sunday", 1)), tz
        )
    except (ValueError, KeyError) as e:  # ZoneInfoNotFoundError is a KeyError
        raise PackError(f"{where}: timezone {tz!r} is not a time zone ({e})") from None


def _load_state_reporting(where: str, value: Any) -> str | None:
    """The State pack whose spill reporting the agency's incidents owe (its name), or None
    where the pack names none (`none`, or no key): no State body, order or system is shown."""
    if value is None or value == NO_STATE_PACK:
        return None
    known = state_pack_names()
    if value not in known:
        raise PackError(
            f"{where}: state_reporting: {value!r} is no State pack "
            f"(one of {', '.join(known)}, or {NO_STATE_PACK})"
        )
    return str(value)


def _load_rules(where: str, data: Any) -> dict[str, RuleSpec]:
    rules = {}
    for rule_id, entry in (data or {}).items():
        here = f"{where}: rules.{rule_id}"
        severity = entry.get("severity", "violation")
        if severity not in SEVERITIES:
            raise PackError(f"{here}: severity must be one of {', '.join(SEVERITIES)}")
        rules[rule_id] = RuleSpec(
            rule_id, severity, _cited(here, entry, "citation"), str(entry.get("title", rule_id))
        )
    return rules


def _load_obligations(where: str, data: Any) -> dict[str, str]:
    """The pack's title of each obligation of the schedule (`gcd.service`: "Pump-out")."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise PackError(f"{where}: obligations: expected a mapping of obligation ids to titles")
    for obligation, title in data.items():
        if not isinstance(title, str) or not title.strip():
            raise PackError(f"{where}: obligations.{obligation}: expected a title")
    return {str(k): v.strip() for k, v in data.items()}


def _load_vocab(where: str, key: str, data: Any) -> dict[str, Vocab]:
    """`device_kinds:` or `categories:`: id -> {title, citation}."""
    if not isinstance(data, dict) or not data:
        raise PackError(f"{where}: {key} is required: a mapping of ids to {{title, citation}}")
    out = {}
    for name, entry in data.items():
        here = f"{where}: {key}.{name}"
        if not isinstance(entry, dict) or not str(entry.get("title") or "").strip():
            raise PackError(f"{here}: expected {{title, citation}}")
        out[str(name)] = Vocab(str(name), entry["title"].strip(), _cited(here, entry, "citation"))
    return out


_REPORT_KEYS = (
    "title",
    "citation",
    "every_months",
    "days_allowed",
    "reference",
    "monitoring_citation",
)


def _load_reports(where: str, data: Any) -> dict[str, ReportKind]:
    """`reports:`: the kinds of report the agency may require, id -> {title, citation,
    every_months?, days_allowed?, reference (required beside a number)}; absent: none."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise PackError(f"{where}: reports: expected a mapping of report kinds")
    out = {}
    for name, entry in data.items():
        here = f"{where}: reports.{name}"
        if not isinstance(entry, dict) or not str(entry.get("title") or "").strip():
            raise PackError(f"{here}: expected {{title, citation, ...}}")
        unknown = sorted(set(entry) - set(_REPORT_KEYS))
        if unknown:
            raise PackError(f"{here}: unknown key {unknown[0]!r}")
        numbers = {k: entry.get(k) for k in ("every_months", "days_allowed")}
        for key, value in numbers.items():
            if value is not None and (type(value) is not int or value <= 0):
                raise PackError(f"{here}.{key}: expected a whole number above 0")
        reference = _cited(here, entry) if any(numbers.values()) else ""
        out[str(name)] = ReportKind(
            str(name),
            entry["title"].strip(),
            _cited(here, entry, "citation"),
            numbers["every_months"],
            numbers["days_allowed"],
            reference,
            str(entry.get("monitoring_citation") or "").strip(),
        )
    return out


def _load_checklist(where: str, data: Any) -> dict[str, ChecklistItem]:
    items = {}
    for i, entry in enumerate(data or []):
        here = f"{where}: checklist[{i}]"
        if not isinstance(entry, dict) or not all(
            isinstance(entry.get(key), str) and entry[key].strip()
            for key in ("item", "question", "finding")
        ):
            raise PackError(f"{here}: expected {{item, question, finding, citation}}")
        items[entry["item"]] = ChecklistItem(
            item=entry["item"],
            question=entry["question"],
            finding=entry["finding"].strip().rstrip("."),  # the message adds its date
            citation=_cited(here, entry, "citation"),
        )
    return items


_FIELD_KINDS = (
    "date",
    "planned_date",
    "datetime",
    "money",
    "flag",
    "choice",
    "penalty_class",
    "count",
    "quantity",
    "milestones",
    "text",
)


def _load_field(where: str, name: str, spec: str) -> FieldSpec:
    required = not spec.endswith("?")
    kind = spec.rstrip("?")
    choices: tuple[str, ...] = ()
    for prefix in ("choice", "action"):
        if kind.startswith(prefix + "(") and kind.endswith(")"):
            choices = tuple(c.strip() for c in kind[len(prefix) + 1 : -1].split(","))
            kind = prefix
    if kind not in _FIELD_KINDS and not (kind == "action" and choices):
        raise PackError(f"{where}: field {name}: unknown kind {spec!r}")
    return FieldSpec(name, kind, required, choices)


def _load_actions(where: str, data: Any, params: dict[str, Parameter]) -> dict[str, ActionSpec]:
    actions = {}
    for type_, entry in (data or {}).items():
        here = f"{where}: actions.{type_}"
        fields = {n: _load_field(here, n, s) for n, s in (entry.get("fields") or {}).items()}
        date_field = entry.get("date_field")
        if date_field not in fields:
            raise PackError(f"{here}: date_field must name one of its fields")
        deadlines = []
        known = set(fields)
        for i, d in enumerate(entry.get("deadlines") or []):
            dwhere = f"{here}.deadlines[{i}]"
            if d.get("kind") not in DEADLINE_KINDS:
                raise PackError(f"{dwhere}: kind must be one of {', '.join(DEADLINE_KINDS)}")
            if d.get("from") not in known:
                raise PackError(f"{dwhere}: from {d.get('from')!r} is neither a field nor a date")
            for p in (d.get("add"), (d.get("extension") or {}).get("add")):
                if p is not None and p not in params:
                    raise PackError(f"{dwhere}: unknown parameter {p!r}")
            appeal_to = d.get("appeal_to")
            if appeal_to is not None and not isinstance(appeal_to, str):
                raise PackError(f"{dwhere}: appeal_to must name a level")
            fills = d.get("fills")
            if fills is not None and (
                fills not in fields or fields[fills].kind != "planned_date" or fills == d["from"]
            ):
                raise PackError(
                    f"{dwhere}: fills {fills!r} is not a planned date of the action "
                    "the deadline does not run from"
                )
            deadlines.append(
                DeadlineSpec(
                    name=d["name"],
                    kind=d["kind"],
                    start=d["from"],
                    add=d.get("add"),
                    roll=bool(d.get("roll", False)),
                    citation=_cited(dwhere, d, "citation"),
                    when=d.get("when") or {},
                    unless_paid=bool(d.get("unless_paid", False)),
                    extension=d.get("extension"),
                    appeal_to=appeal_to,
                    fills=fills,
                )
            )
            known.add(d["name"])
        actions[type_] = ActionSpec(
            type=type_,
            title=str(entry.get("title", type_)),
            citation=_cited(here, entry, "citation"),
            date_field=date_field,
            fields=fields,
            deadlines=tuple(deadlines),
            checks=entry.get("checks") or {},
            appeal=_load_appeal(here, entry.get("appeal"), fields, known),
            letter=_flag(f"{here}.letter", entry.get("letter", False)),
            requires=_load_requires(here, entry.get("requires"), fields),
            grounds=_load_grounds(here, entry.get("grounds")),
            **_load_costs(here, entry.get("costs"), fields),
            waiver=_cited(f"{here}.waiver", entry["waiver"], "citation")
            if entry.get("waiver") is not None
            else None,
        )
    for type_, spec in actions.items():
        for r in spec.requires:
            for t in r.types:
                if t not in actions and t not in STEP_TYPES:
                    raise PackError(
                        f"{where}: actions.{type_}.requires: {t!r} is not an action type"
                    )
    return actions


GROUND_KEYS = ("what", "citation", "in_case", "overflows", "under_order")


def _load_costs(where: str, data: Any, fields: dict[str, FieldSpec]) -> dict[str, Any]:
    """`costs: {fields: [money fields], citation}`: what of the action is invoiced at cost."""
    if data is None:
        return {}
    here = f"{where}.costs"
    if not isinstance(data, dict) or not isinstance(data.get("fields"), list):
        raise PackError(f"{here}: expected {{fields: [money fields of the action], citation}}")
    for name in data["fields"]:
        if name not in fields or fields[name].kind != "money":
            raise PackError(f"{here}: {name!r} is not a money field of the action")
    return {"costs": tuple(data["fields"]), "costs_citation": _cited(here, data, "citation")}


def _load_grounds(where: str, data: Any) -> dict[str, dict[str, Any]]:
    """`grounds: {class: {what, citation, in_case?, overflows?, under_order?}}`."""
    out = {}
    for cls, g in (data or {}).items():
        here = f"{where}.grounds.{cls}"
        if not isinstance(g, dict) or not isinstance(g.get("what"), str):
            raise PackError(f"{here}: expected {{what, citation, ...}}")
        for key in g:
            if key not in GROUND_KEYS:
                raise PackError(f"{here}.{key}: unknown key (expected {', '.join(GROUND_KEYS)})")
        _cited(here, g, "citation")
        out[str(cls)] = dict(g)
    return out


# the steps of a case that are not the pack's actions, which a requirement may name
STEP_TYPES = ("appeal",)


def _load_requires(where: str, data: Any, fields: dict[Any, Any]) -> tuple[Requirement, ...]:
    """`requires: [{refers_to: [types], what, citation, heard?, past?, in_case?, when?,
    of?}]`."""
    out = []
    for i, r in enumerate(data or []):
        here = f"{where}.requires[{i}]"
        if not isinstance(r, dict) or not isinstance(r.get("refers_to"), list):
            raise PackError(f"{here}: expected {{refers_to: [types], what, citation}}")
        if not isinstance(r.get("what"), str) or not r["what"].strip():
            raise PackError(f"{here}.what: say in words what must be on record")
        past = r.get("past")
        out.append(
            Requirement(
                types=tuple(str(t) for t in r["refers_to"]),
                what=r["what"].strip(),
                citation=_cited(here, r, "citation"),
                heard=_flag(f"{here}.heard", r.get("heard", False)),
                past=str(past) if past is not None else None,
                in_case=_flag(f"{here}.in_case", r.get("in_case", False)),
                when=r.get("when") or {},
                of=tuple(str(t) for t in r.get("of") or ()),
            )
        )
        for key in r.get("when") or {}:
            if key not in fields:
                raise PackError(f"{here}.when: {key!r} is not a field of the action")
    return tuple(out)


def _flag(where: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise PackError(f"{where}: expected true or false, got {value!r}")
    return value


def _load_appeal(
    where: str, data: Any, fields: dict[Any, Any], known: set[Any]
) -> dict[str, str] | None:
    """`appeal: {deadline, filed, decided, final?, replaced_by?}`: an appeal filed by `deadline`
    is recorded on the action as `filed` and its decision as `decided`, from which deadlines
    of the action may run; it suspends `final` (and what runs from it) until `decided` (RULES.md
    11.4) where the action has a `final` (an act whose appeal suspends nothing has none); an
    order of the
    same type whose `replaced_by` field names this one replaces it: this one is never final
    (RULES.md 12.8)."""
    if data is None:
        return None
    here = f"{where}.appeal"
    if not isinstance(data, dict):
        raise PackError(f"{here}: expected {{deadline, filed, decided, final}}")
    for key in ("deadline", "filed", "decided"):
        if not isinstance(data.get(key), str):
            raise PackError(f"{here}.{key}: required")
    if "final" in data and not isinstance(data["final"], str):
        raise PackError(f"{here}.final: expected the name of a deadline of the action")
    for key in ("filed", "decided"):
        if data[key] not in fields:
            raise PackError(f"{here}.{key}: {data[key]!r} is not a field of the action")
    for key in ("deadline", "final"):
        if key in data and data[key] not in known:
            raise PackError(f"{here}.{key}: {data[key]!r} is not a deadline of the action")
    out = {k: data[k] for k in ("deadline", "filed", "decided", "final") if k in data}
    replaced_by = data.get("replaced_by")
    if replaced_by is not None:
        if replaced_by not in fields or fields[replaced_by].kind != "action":
            raise PackError(f"{here}.replaced_by: {replaced_by!r} is not an action field")
        out["replaced_by"] = replaced_by
    return out


def _check_appeal_levels(
    where: str, actions: dict[str, ActionSpec], sequence: Sequence[str]
) -> None:
    for type_, spec in actions.items():
        for d in spec.deadlines:
            if d.appeal_to and d.appeal_to not in (*sequence, *APPEAL_LEVELS):
                raise PackError(
                    f"{where}: actions.{type_}.deadlines ({d.name}): appeal_to "
                    f"{d.appeal_to!r} is not a level of the procedure"
                )


def _load_procedure(where: str, data: Any, actions: dict[str, ActionSpec]) -> dict[str, Any]:
    """The enforcement procedure: who acts in what order (used by the enforcement app)."""
    if not data:
        _check_appeal_levels(where, actions, ())
        return {}
    here = f"{where}: procedure"
    _cited(here, data, "citation")
    sequence = data.get("sequence") or []
    levels = data.get("levels") or {}
    for action, level in levels.items():
        if level not in sequence:
            raise PackError(f"{here}.levels.{action}: {level!r} is not in the sequence")
    bar = data.get("judicial_bar")
    if bar is not None:
        _cited(f"{here}.judicial_bar", bar, "citation")
    admin_bar = data.get("administrative_bar")
    if admin_bar is not None:
        _cited(f"{here}.administrative_bar", admin_bar, "citation")
    first = data.get("first_notice")
    if first is not None and first not in actions:
        raise PackError(f"{here}.first_notice: {first!r} is not an action type of the pack")
    signed_by = data.get("signed_by") or {}
    for action, officer in signed_by.items():
        if action not in actions:
            raise PackError(f"{here}.signed_by.{action}: not an action type of the pack")
        if not isinstance(officer, str) or not officer:
            raise PackError(f"{here}.signed_by.{action}: expected the officer who signs")
    _check_appeal_levels(where, actions, sequence)
    return {
        "citation": data["citation"],
        "first_notice": first,
        "sequence": tuple(sequence),
        "levels": dict(levels),
        "signed_by": dict(signed_by),
        "on_appeal": frozenset(data.get("on_appeal") or ()),
        "judicial_bar": bar["citation"] if bar else None,
        "administrative_bar": admin_bar["citation"] if admin_bar else None,
    }


def load_pack(folder: Path | str) -> Pack:
    """Load and check one pack folder."""
    folder = Path(folder)
    where = str(folder)
    try:
        meta = _load_yaml(folder / "pack.yaml")
    except FileNotFoundError:
        raise PackError(f"{where}: no pack.yaml") from None
    except yaml.YAMLError as e:
        raise PackError(f"{where}/pack.yaml: not YAML: {e}") from None
    except Refused as e:
        raise PackError(f"{where}/pack.yaml: {e}") from None

    def part(name: str) -> Any:
        path = folder / name
        try:
            return _load_yaml(path) if path.exists() else None
        except yaml.YAMLError as e:
            raise PackError(f"{path}: not YAML: {e}") from None
        except Refused as e:
            raise PackError(f"{path}: {e}") from None

    for key in ("id", "name", "ordinance", "effective"):
        if not meta.get(key):
            raise PackError(f"{where}/pack.yaml: {key} is required")
    effective = _as_date(f"{where}/pack.yaml: effective", meta["effective"])
    params = _load_parameters(f"{where}/parameters.yaml", part("parameters.yaml") or {})
    for name, p in params.items():
        if p.values[0].effective < effective:
            raise PackError(f"{where}/parameters.yaml: {name} takes effect before the pack")
    enforcement = part("enforcement.yaml") or {}
    actions = _load_actions(f"{where}/enforcement.yaml", enforcement.get("actions"), params)
    categories = _load_vocab(f"{where}/pack.yaml", "categories", meta.get("categories"))
    default_category = meta.get("default_category")
    if default_category not in categories:
        raise PackError(
            f"{where}/pack.yaml: default_category must be one of the categories "
            f"({', '.join(categories)})"
        )
    pack = Pack(
        id=meta["id"],
        name=meta["name"],
        ordinance=meta["ordinance"],
        effective=effective,
        effective_reference=_cited(f"{where}/pack.yaml", meta, "effective_reference"),
        titles=dict(meta.get("titles") or {}),
        calendar=_load_holidays(
            f"{where}/pack.yaml", meta.get("holidays"), meta.get("timezone", "UTC")
        ),
        parameters=params,
        rules=_load_rules(f"{where}/pack.yaml", meta.get("rules")),
        checklist=_load_checklist(f"{where}/checklist.yaml", part("checklist.yaml")),
        actions=actions,
        source=folder,
        procedure=_load_procedure(
            f"{where}/enforcement.yaml", enforcement.get("procedure"), actions
        ),
        obligations=_load_obligations(f"{where}/pack.yaml", meta.get("obligations")),
        device_kinds=_load_vocab(f"{where}/pack.yaml", "device_kinds", meta.get("device_kinds")),
        categories=categories,
        reports=_load_reports(f"{where}/pack.yaml", meta.get("reports")),
        default_category=default_category,
        state_reporting=_load_state_reporting(f"{where}/pack.yaml", meta.get("state_reporting")),
    )
    _check_parameters(where, pack)
    _check_check_rules(where, pack)
    _check_signers(where, pack)
    return pack


def _check_signers(where: str, pack: Pack) -> None:
    """An officer who signs an action's letter in another's stead has a title in pack.yaml."""
    for type_, officer in pack.procedure.get("signed_by", {}).items():
        if officer not in pack.titles and officer not in pack.procedure.get("sequence", ()):
            raise PackError(
                f"{where}/enforcement.yaml: procedure.signed_by.{type_}: {officer!r} has no "
                "title in pack.yaml (titles) and is no level of the procedure"
            )


_CHECK_RULES = ("rule", "precondition_rule", "missed_rule")


def _check_check_rules(where: str, pack: Pack) -> None:
    """A rule an action's check raises must be a rule of pack.yaml, with its citation."""
    for type_, spec in pack.actions.items():
        for name, cfg in spec.checks.items():
            if name == "daily_fine" or not isinstance(cfg, dict):
                continue  # an accrual carries its own citation
            for key in _CHECK_RULES:
                rule = cfg.get(key)
                if rule is not None and rule not in pack.rules:
                    raise PackError(
                        f"{where}/enforcement.yaml: actions.{type_}.checks.{name}.{key}: "
                        f"{rule!r} is not a rule of pack.yaml"
                    )


_DURATION_SUFFIXES = ("_period", "_interval", "_window", "_lead", "_grace", "_term")
_DURATIONS = ("permit.term", "enforcement.hearing_continuance_limit")


def _check_parameters(where: str, pack: Pack) -> None:
    """Values whose shape the engine relies on: periods, penalty caps, device kinds."""
    here = f"{where}/parameters.yaml"
    kinds = set(pack.device_kinds)
    for name, param in pack.parameters.items():
        for v in param.values:
            at = f"{here}: {name} ({v.effective})"
            value = v.value
            if name.endswith(_DURATION_SUFFIXES) or name in _DURATIONS:
                _check_duration(at, value)
            if name.endswith("_days") and not _whole_days(value):
                raise PackError(f"{at}: {value!r} is not a whole number of days")
            if name == "gcd.default_service_frequency":
                if not isinstance(value, dict):
                    raise PackError(f"{at}: expected a mapping of device kinds to periods")
                for kind, period in value.items():
                    _check_duration(f"{at}: {kind}", period)
                    if Duration.parse(period).unit not in ("days", "weeks", "months", "years"):
                        raise PackError(f"{at}: {kind}: a frequency is counted in calendar units")
            if name.startswith("gcd.") and name.endswith(("device_kinds", "_kinds")):
                unknown = sorted(set(value or ()) - kinds)
                if unknown:
                    raise PackError(f"{at}: unknown device kind {unknown[0]!r}")
            if name in ("gcd.default_service_frequency", "gcd.design_limits"):
                unknown = sorted(set(value or {}) - kinds)
                if unknown:
                    raise PackError(f"{at}: unknown device kind {unknown[0]!r}")
            if name == "gcd.design_limits":
                _check_design_limits(at, value)
            if name in ("gcd.required_categories", "applicability.exempt_categories"):
                unknown = sorted(set(value or ()) - set(pack.categories))
                if unknown:
                    raise PackError(f"{at}: unknown category {unknown[0]!r}")
            if name.startswith("enforcement.penalty_cap."):
                _check_cap(at, value)


def _check_design_limits(where: str, value: Any) -> None:
    from .records import DESIGN_FIELDS

    for kind, limits in (value or {}).items():
        for name in limits or {}:
            if name not in DESIGN_FIELDS:
                raise PackError(
                    f"{where}: {kind}.{name} is not a design field of a device "
                    f"({', '.join(DESIGN_FIELDS)})"
                )


def _check_duration(where: str, value: Any) -> None:
    try:
        Duration.parse(value)
    except ValueError as e:
        raise PackError(f"{where}: {e}") from None


def _whole_days(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value >= 0
    if isinstance(value, list):
        return all(_whole_days(v) for v in value)
    if isinstance(value, dict):
        return all(_whole_days(v) for v in value.values())
    return False


def _check_cap(where: str, value: Any) -> None:
    if not (isinstance(value, dict) and {"amount", "per", "imposed_by"} <= set(value)):
        raise PackError(f"{where}: expected {{amount, per, imposed_by}}")
    if value["per"] not in PENALTY_UNITS:
        raise PackError(f"{where}: per must be one of {', '.join(PENALTY_UNITS)}")
    if value["imposed_by"] not in IMPOSED_BY:
        raise PackError(f"{where}: imposed_by must be one of {', '.join(IMPOSED_BY)}")

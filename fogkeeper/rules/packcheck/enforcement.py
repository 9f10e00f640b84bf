"""enforcement.yaml: the action types, their fields, deadlines, appeals, checks and the
procedure."""

from __future__ import annotations

from typing import Any

from ..packload import _FIELD_KINDS
from ..packmodel import APPEAL_LEVELS, DEADLINE_KINDS, PENALTY_UNITS
from .common import (
    ACTION_KEYS,
    DATE_KINDS,
    DEADLINE_KEYS,
    EXTENSION_KEYS,
    PENALTY_CAP,
    PROCEDURE_KEYS,
    REQUIRE_KEYS,
    _Fields,
    _mapping,
    _Names,
    _Pack,
    _text,
    _unknown_keys,
)
from .shapes import amount, duration, flag

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


# enforcement.yaml


def _field_kind(spec: Any) -> tuple[str | None, tuple[str, ...]]:
    if not isinstance(spec, str):
        return None, ()
    kind = spec.rstrip("?")
    for prefix in ("choice", "action"):
        if kind.startswith(prefix + "(") and kind.endswith(")"):
            choices = tuple(c.strip() for c in kind[len(prefix) + 1 : -1].split(",") if c.strip())
            return (prefix if choices else None), choices
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
    sequence: tuple[Any, ...] = ()
    if isinstance(procedure, dict) and isinstance(procedure.get("sequence"), list):
        sequence = tuple(str(level) for level in procedure["sequence"])
    caps = {
        n[len(PENALTY_CAP) :]: values
        for n, values in pk.parameters.items()
        if n.startswith(PENALTY_CAP)
    }
    for type_, entry in actions.items():
        _check_action(pk, str(type_), entry, sequence, procedure is not None, caps)
        if isinstance(entry, dict) and entry.get("requires") is not None:
            _check_requires(pk, f"actions.{type_}.requires", entry, actions)
        if isinstance(entry, dict) and entry.get("waiver") is not None:
            pk.cited(f, f"actions.{type_}.waiver", entry["waiver"])
        if isinstance(entry, dict) and entry.get("grounds") is not None:
            _check_grounds(pk, f"actions.{type_}.grounds", entry["grounds"], actions)
    if procedure is not None:
        _check_procedure(pk, procedure, actions)
    return len(actions)


def _check_grounds(pk: _Pack, here: str, grounds: Any, actions: dict[Any, Any]) -> None:
    """What each penalty class needs on record (RULES.md 12.4)."""
    f = "enforcement.yaml"
    if not isinstance(grounds, dict):
        pk.add(f, here, "expected penalty classes to {what, citation, ...}")
        return
    for cls, g in grounds.items():
        at = f"{here}.{cls}"
        if f"{PENALTY_CAP}{cls}" not in pk.parameters:
            pk.add(f, at, f"{cls!r} is not a penalty class of the pack (no {PENALTY_CAP}{cls})")
        if not isinstance(g, dict):
            pk.add(f, at, "expected {what, citation, in_case?, overflows?, under_order?}")
            continue
        _unknown_keys(pk, f, at, g, ("what", "citation", "in_case", "overflows", "under_order"))
        pk.cited(f, at, g)
        for key in ("in_case", "under_order"):
            for t in g.get(key) or []:
                if t not in actions:
                    pk.add(f, f"{at}.{key}", f"{t!r} is not an action type of the pack")


def _check_requires(pk: _Pack, here: str, entry: dict[Any, Any], actions: dict[Any, Any]) -> None:
    """What must be on record before the action (RULES.md 12.1)."""
    f = "enforcement.yaml"
    requires = entry["requires"]
    if not isinstance(requires, list):
        pk.add(f, here, "expected a list of {refers_to, what, citation}")
        return
    fields: Any = entry.get("fields") if isinstance(entry.get("fields"), dict) else {}
    for i, r in enumerate(requires):
        at = f"{here}[{i}]"
        if not isinstance(r, dict):
            pk.add(f, at, "expected {refers_to: [action types], what, citation}")
            continue
        _unknown_keys(pk, f, at, r, REQUIRE_KEYS)
        pk.cited(f, at, r)
        if not _text(r.get("what")):
            pk.add(f, f"{at}.what", "say in words what must be on record")
        types = r.get("refers_to")
        if not isinstance(types, list) or not types:
            pk.add(f, f"{at}.refers_to", "expected a list of action types (or appeal)")
            types = []
        for t in types:
            if t != "appeal" and t not in actions:
                pk.add(f, f"{at}.refers_to", f"{t!r} is not an action type of the pack")
        of = r.get("of", [])
        if not isinstance(of, list):
            pk.add(f, f"{at}.of", "expected a list of action types")
            of = []
        for t in of:
            if t not in actions:
                pk.add(f, f"{at}.of", f"{t!r} is not an action type of the pack")
        for key in ("heard", "in_case"):
            if key in r and not isinstance(r[key], bool):
                pk.add(f, f"{at}.{key}", f"{r[key]!r} is not true or false")
        when = r.get("when") or {}
        for key in when if isinstance(when, dict) else ():
            if key not in fields:
                pk.add(f, f"{at}.when", f"{key!r} is not a field of the action")


def _check_action(
    pk: _Pack,
    type_: str,
    entry: Any,
    sequence: tuple[Any, ...],
    has_procedure: bool,
    caps: dict[Any, Any],
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


def _action_fields(pk: _Pack, here: str, entry: dict[Any, Any]) -> dict[Any, Any]:
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
                f"unknown kind {spec!r} ({', '.join(_FIELD_KINDS)}, choice(a, b), "
                "action(type); "
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
    pk: _Pack, at: str, d: Any, fields: dict[Any, Any], names: set[Any], sequence: tuple[Any, ...]
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
    fills = d.get("fills")
    if fills is not None and (
        fills not in fields or fields[fills][0] != "planned_date" or fills == start
    ):
        why = "is not a planned date the deadline does not run from"
        pk.add(f, f"{dhere}.fills", f"{fills!r} {why}")
    pk.cited(f, dhere, d)
    _check_when(pk, dhere, d.get("when") or {}, fields)
    ext = d.get("extension")
    if ext is not None:
        _check_extension(pk, f"{dhere}.extension", ext, fields)
    _check_appeal_to(pk, dhere, d, sequence)
    return dname if _text(dname) else None


def _check_when(pk: _Pack, dhere: str, when: Any, fields: dict[Any, Any]) -> None:
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


def _check_appeal_to(pk: _Pack, dhere: str, d: dict[Any, Any], sequence: tuple[Any, ...]) -> None:
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


def _check_penalty_fields(
    pk: _Pack, here: str, fields: dict[Any, Any], capped: bool, caps: dict[Any, Any]
) -> None:
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


def _check_extension(pk: _Pack, here: str, ext: Any, fields: dict[Any, Any]) -> None:
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


def _check_appeal(
    pk: _Pack, here: str, appeal: Any, fields: dict[Any, Any], names: set[Any]
) -> None:
    f = "enforcement.yaml"
    if not isinstance(appeal, dict):
        pk.add(f, here, "expected {deadline, filed, decided, final}")
        return
    _unknown_keys(pk, f, here, appeal, ("deadline", "filed", "decided", "final", "replaced_by"))
    replaced_by = appeal.get("replaced_by")
    kind = fields[replaced_by][0] if replaced_by in fields else None
    if replaced_by is not None and kind != "action":
        pk.add(f, f"{here}.replaced_by", f"{replaced_by!r} is not an action(type) field")
    for key in ("filed", "decided"):
        if appeal.get(key) not in fields:
            pk.add(f, f"{here}.{key}", f"{appeal.get(key)!r} is not a field of the action")
        elif fields[appeal[key]][0] != "date":
            pk.add(f, f"{here}.{key}", f"{appeal[key]!r} is not a date field")
    for key in ("deadline", "final"):
        if (key == "deadline" or key in appeal) and appeal.get(key) not in names:
            pk.add(f, f"{here}.{key}", f"{appeal.get(key)!r} is not a deadline of the action")


def _check_check(
    pk: _Pack,
    here: str,
    name: str,
    cfg: Any,
    fields: dict[Any, Any],
    names: set[Any],
    kinds_of: dict[Any, Any],
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


def _check_procedure(pk: _Pack, data: Any, actions: dict[Any, Any]) -> None:
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
    signed = _mapping(
        pk,
        f,
        "procedure.signed_by",
        data.get("signed_by") or {},
        "action types to the officer who signs their letters",
    )
    for type_, officer in signed.items():
        if type_ not in actions:
            pk.add(f, f"procedure.signed_by.{type_}", "not an action type of the pack")
        if not _text(officer):
            pk.add(f, f"procedure.signed_by.{type_}", "expected the officer who signs (a title)")
    for key in ("judicial_bar", "administrative_bar"):
        if data.get(key) is not None:
            pk.cited(f, f"procedure.{key}", data[key])

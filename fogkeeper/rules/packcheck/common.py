"""What every part of the pack check shares: the problems found and the summary of a
pack (PackProblem, PackCheck), the names the engine knows, and the pack being read
(_Pack) with its helpers. The rules and obligations the engine knows are those its check
modules declare (fogkeeper.rules.checks.declared and obligations)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, TypeGuard

import yaml

from ...safeload import Refused
from ..packload import _load_yaml
from ..packmodel import PENALTY_CAP as PENALTY_CAP  # read by the other parts from here
from ..yamllines import key_lines, line_of

# A shape of a value: the problems of one value, as messages (empty: fine).
Checker = Callable[[Any, "_Pack"], list[str]]

FILES = ("pack.yaml", "parameters.yaml", "checklist.yaml", "enforcement.yaml")

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
    "area": False,
    "state_reporting": False,
    "billing": False,
    "reports": False,
}
HOLIDAY_KEYS = ("name", "month", "day", "weekday", "nth", "offset_days")
ACTION_KEYS = (
    "title",
    "citation",
    "date_field",
    "fields",
    "deadlines",
    "checks",
    "appeal",
    "letter",
    "requires",
    "waiver",
    "grounds",
    "costs",
)
REQUIRE_KEYS = ("refers_to", "what", "citation", "heard", "past", "in_case", "when", "of")
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
    "fills",
)
EXTENSION_KEYS = ("requested", "within", "from", "add", "roll")
PROCEDURE_KEYS = (
    "citation",
    "sequence",
    "levels",
    "signed_by",
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
    refused: bool = False  # the file was refused unread (fogkeeper.safeload): exit status 2

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

    @property
    def refused(self) -> bool:
        return any(p.refused for p in self.problems)

    def summary(self) -> str:
        return (
            f"{self.pack_id or self.folder.name}: ok ({self.rules} rules, {self.parameters} "
            f"parameters, {self.checklist} checklist items, {self.actions} action types)"
        )


class _Names(set[Any]):
    """A set of names that answers "no" for a value that cannot be a name (a list, a map)."""

    def __contains__(self, x: object) -> bool:
        try:
            return super().__contains__(x)
        except TypeError:
            return False


class _Fields(dict[Any, Any]):
    """Field name -> (kind, choices), answering "no" for a value that cannot be a name."""

    def __contains__(self, x: object) -> bool:
        try:
            return super().__contains__(x)
        except TypeError:
            return False


def placeholder(v: Any) -> bool:
    """A value `packs new` left for the agency to decide ("TODO: ...", or one inside it): its
    shape is not checked, `_check_placeholders` names it instead."""
    if isinstance(v, str):
        return v.lstrip().startswith("TODO")
    if isinstance(v, dict):
        return any(placeholder(x) for x in v.values())
    if isinstance(v, list):
        return any(placeholder(x) for x in v)
    return False


def _text(v: Any) -> TypeGuard[str]:
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
        except Refused as e:
            self.problems.append(
                PackProblem(f"{self.folder.name}/{name}", "", str(e), refused=True)
            )
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


def _mapping(pk: _Pack, file: str, key: str, value: Any, what: str) -> dict[Any, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        pk.add(file, key, f"expected a mapping of {what}")
        return {}
    return value


def _unknown_keys(
    pk: _Pack, file: str, key: str, entry: dict[Any, Any], known: Iterable[str]
) -> None:
    known = tuple(known)
    for k in entry:
        if k not in known:
            prefix = f"{key}.{k}" if key else str(k)
            pk.add(file, prefix, f"unknown key (expected {', '.join(known)})")

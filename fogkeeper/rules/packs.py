"""Jurisdiction packs, an ordinance as data: the packs a deployment knows, by id
(`default_registry`), and in one place the names of what a pack is (`packmodel`) and of
its loading (`packload`)."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from .errors import PackError, ParameterNotInForce
from .packload import load_pack
from .packmodel import (
    APPEAL_LEVELS,
    COURT,
    DEADLINE_KINDS,
    IMPOSED_BY,
    LEVEL_TITLE_KEYS,
    PENALTY_CAP,
    PENALTY_UNITS,
    SEVERITIES,
    ActionSpec,
    ChecklistItem,
    DeadlineSpec,
    FieldSpec,
    Pack,
    Parameter,
    ParameterValue,
    ParamSet,
    PenaltyCap,
    RuleSpec,
    Vocab,
    level_title,
)

__all__ = [
    "APPEAL_LEVELS",
    "COURT",
    "DEADLINE_KINDS",
    "IMPOSED_BY",
    "LEVEL_TITLE_KEYS",
    "PACKS_DIR",
    "PENALTY_CAP",
    "PENALTY_UNITS",
    "SEVERITIES",
    "ActionSpec",
    "ChecklistItem",
    "DeadlineSpec",
    "FieldSpec",
    "Pack",
    "PackError",
    "PackRegistry",
    "Parameter",
    "ParameterNotInForce",
    "ParameterValue",
    "ParamSet",
    "PenaltyCap",
    "RuleSpec",
    "Vocab",
    "default_registry",
    "level_title",
    "load_pack",
    "pack_folders",
]

PACKS_DIR = Path(__file__).resolve().parent.parent / "jurisdictions"


class PackRegistry:
    """The packs a deployment knows, by id."""

    def __init__(self, folders: list[Path]):
        self._packs: dict[str, Pack] = {}
        for base in folders:
            # a folder of packs, or one pack's own folder
            if (Path(base) / "pack.yaml").exists():
                candidates = [Path(base)]
            else:
                candidates = sorted(Path(base).iterdir()) if Path(base).is_dir() else []
            for folder in candidates:
                if (folder / "pack.yaml").exists():
                    pack = load_pack(folder)
                    if pack.id in self._packs:
                        raise PackError(f"{folder}: pack id {pack.id!r} is already loaded")
                    self._packs[pack.id] = pack

    def has(self, pack_id: str) -> bool:
        return pack_id in self._packs

    def get(self, pack_id: str) -> Pack:
        try:
            return self._packs[pack_id]
        except KeyError:
            raise PackError(f"unknown jurisdiction {pack_id!r}") from None

    def ids(self) -> list[str]:
        return sorted(self._packs)

    def all(self) -> list[Pack]:
        return [self._packs[i] for i in self.ids()]


def pack_folders(extra: list[str] | None = None) -> list[Path]:
    """The bundled packs, then any in FOGKEEPER_PACKS (os.pathsep-separated) or `extra`."""
    folders = [PACKS_DIR]
    env = os.environ.get("FOGKEEPER_PACKS", "")
    folders += [Path(p) for p in env.split(os.pathsep) if p]
    folders += [Path(p) for p in extra or []]
    return folders


@cache
def _registry(key: tuple[str, ...]) -> PackRegistry:
    return PackRegistry([Path(k) for k in key])


def default_registry(extra: list[str] | None = None) -> PackRegistry:
    if extra:
        return _registry(tuple(str(p) for p in pack_folders(extra)))
    return _by_environment(os.environ.get("FOGKEEPER_PACKS", ""))


@cache
def _by_environment(env: str) -> PackRegistry:
    """The registry while FOGKEEPER_PACKS is `env` (asked for on every parse_case)."""
    return _registry(tuple(str(p) for p in pack_folders()))

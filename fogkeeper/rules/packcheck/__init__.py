"""Checking a jurisdiction pack: every problem at once, each naming its file and key.

`load_pack` stops at the first thing wrong; `check_pack(folder)` reads the same files
itself and collects every problem as `(file, key, message)`, so an author fixes a pack
in one pass (`fogkeeper packs check DIR`). It knows what the engine reads: PARAMETERS
below is the table of every parameter the engine and the apps look up (grep
`ctx.params[...]`, `ctx.params.get(...)`, `ctx.params.duration(...)`, `ctx.add(..., name)` and
`pack.param(...)`), with the shape its value must have and the rules that read it.
A parameter not in the table passes unless its name ends in a suffix with a meaning
(`_days`: whole days; `_period`, `_interval`, `_window`, `_lead`, `_grace`, `_term`,
`_limit`: a period). When nothing is found, the pack is also loaded with `load_pack`,
so whatever the loader refuses is reported too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from ...safeload import Refused
from ..checks import declared
from ..errors import PackError
from ..packload import _load_yaml, load_pack
from ..packs import PACKS_DIR
from ..yamllines import key_lines
from .checklist import _check_checklist
from .common import FILES, PackCheck, PackProblem, _Pack
from .documents import _check_application, _check_letters, _check_requests
from .enforcement import CHECKS, _check_enforcement
from .meta import _check_meta
from .parameters import PARAMETERS, _check_parameters, _check_values

__all__ = [
    "PARAMETERS",
    "CHECKS",
    "PackCheck",
    "PackProblem",
    "check_pack",
    "check_packs",
    "pack_folders_in",
]


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
    _check_requests(pk, pk.read("requests.yaml"))
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
    order = {name: i for i, name in enumerate((*FILES, "application.yaml", "requests.yaml"))}
    result.problems = sorted(
        pk.problems, key=lambda p: order.get(p.file.partition("/")[2], len(order))
    )
    return result


def _check_placeholders(pk: _Pack) -> None:
    """A "TODO" left by `fogkeeper packs new` is a value the agency has not decided: each is
    named with its line, its key and what to decide (the placeholder's own words)."""
    for file, lines in pk.lines.items():
        path = pk.folder / file
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        at: dict[int, list[str]] = {}
        for key, number in lines.items():
            at.setdefault(number, []).append(key)
        for n, line in enumerate(text.splitlines(), start=1):
            if "TODO" not in line.split("#", 1)[0]:  # a comment's "TODO" is no placeholder
                continue
            for m in _PLACEHOLDER.finditer(line):
                rest = line[m.end() :]
                quote = m["quote"]
                what = rest.split(quote, 1)[0] if quote else re.split(r"\s#|[,}\]]", rest)[0]
                pk.problems.append(
                    PackProblem(
                        f"{pk.folder.name}/{file}",
                        _key_at(at.get(n, []), m["key"]),
                        f"to decide: {what.strip()}" if what.strip() else PLACEHOLDER_MESSAGE,
                        n,
                    )
                )


def _key_at(keys: list[str], name: str | None) -> str:
    """The key a placeholder is the value of, among those on its line (a flow mapping has
    several): the one named just before it, else the deepest."""
    named = [k for k in keys if name and (k == name or k.endswith(f".{name}"))]
    return max(named or keys, key=len, default="")


# `key: "TODO: what to decide, as an example"`, quoted or not (`code: TODO`).
_PLACEHOLDER = re.compile(r"""(?:(?P<key>[\w.-]+):\s*)?(?P<quote>["']?)TODO\b:?""")
PLACEHOLDER_MESSAGE = "a placeholder of the new pack: put the ordinance's words here"


def _check_rules_raised(pk: _Pack, enforcement: Any) -> None:
    """A rule of pack.yaml that nothing raises is a typo or a rule of another engine: the
    engine raises the rules its check modules declare and those enforcement.yaml's checks
    name."""
    named: set[str] = set()
    actions = enforcement.get("actions") if isinstance(enforcement, dict) else None
    for entry in (actions or {}).values() if isinstance(actions, dict) else ():
        checks = entry.get("checks") if isinstance(entry, dict) else None
        for name, cfg in (checks or {}).items() if isinstance(checks, dict) else ():
            if isinstance(cfg, dict):
                for key, (what, _) in CHECKS.get(name, {}).items():
                    if what == "rule" and isinstance(cfg.get(key), str):
                        named.add(cfg[key])
    for rule in sorted(pk.rules - declared().keys() - named):
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
        except (OSError, yaml.YAMLError, Refused):
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

"""The engine compiled: its checks and its reading of case files as mypyc extension modules.

`make engine` (scripts/build-engine) compiles MODULES into extension modules beside their
sources and writes STAMP with the digest of the engine's sources they were compiled from.
Python loads an extension module in preference to its source, so a build older than the
sources must never be loaded: `use_sources_unless_current()`, which `fogkeeper.rules` calls
before it imports anything else, then has MODULES read from their `.py` files, as it does
when FOGKEEPER_ENGINE=python. The two give the same reports (tests/rules/test_native.py).

This module imports nothing of fogkeeper, so the build can read it without loading the
extension modules it is about to replace.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
STAMP = HERE / "native.json"
GROUP = "fogkeeper.rules.native_engine"  # its shared library: native_engine__mypyc.*.so
MODULES = (
    "fogkeeper.rules.actions",
    "fogkeeper.rules.calendar",
    "fogkeeper.rules.casefile",
    "fogkeeper.rules.context",
    "fogkeeper.rules.engine",
    "fogkeeper.rules.checks",
    "fogkeeper.rules.checks.devices",
    "fogkeeper.rules.checks.discharge",
    "fogkeeper.rules.checks.enforcement",
    "fogkeeper.rules.checks.incidents",
    "fogkeeper.rules.checks.inspections",
    "fogkeeper.rules.checks.observations",
    "fogkeeper.rules.checks.permits",
    "fogkeeper.rules.checks.reports",
    "fogkeeper.rules.checks.training",
    "fogkeeper.rules.checks.waste",
)

state = "python"  # what runs: "compiled", or "python" with `reason` saying why
reason = "not yet decided"


def source_of(module: str) -> Path:
    """The `.py` file of one of MODULES."""
    parts = module.split(".")[2:]
    package = HERE.joinpath(*parts)
    if package.is_dir():
        return package / "__init__.py"
    return HERE.joinpath(*parts[:-1], parts[-1] + ".py")


def sources_digest() -> str:
    """The digest of every source the compiled modules were built from, or read the types
    of (records, packs, calendar, report...): each `.py` of the engine, in name order."""
    digest = hashlib.sha256()
    for path in sorted([*HERE.glob("*.py"), *HERE.glob("checks/*.py")]):
        digest.update(path.relative_to(HERE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def compiled_files() -> list[Path]:
    """The extension modules a build left in the package (none when never built)."""
    return sorted([*HERE.glob("*.so"), *HERE.glob("checks/*.so"), *HERE.glob("*.pyd")])


def _why_not_compiled() -> str | None:
    if os.environ.get("FOGKEEPER_ENGINE") == "python":
        return "FOGKEEPER_ENGINE=python"
    if not compiled_files():
        return "not compiled (`make engine` compiles it)"
    try:
        built = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        return f"the compiled modules have no readable {STAMP.name}: `make engine` rebuilds them"
    if built.get("python") != sys.implementation.cache_tag:
        return f"compiled for {built.get('python')}, not {sys.implementation.cache_tag}"
    if built.get("sources") != sources_digest():
        return "the compiled modules are older than their sources: `make engine` rebuilds them"
    return None


class _Sources(importlib.abc.MetaPathFinder):
    """Finds MODULES as their `.py` files, ahead of the extension modules beside them."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname not in MODULES:
            return None
        source = source_of(fullname)
        search = [str(source.parent)] if source.name == "__init__.py" else None
        return importlib.util.spec_from_file_location(
            fullname, source, submodule_search_locations=search
        )


def use_sources_unless_current() -> None:
    """Load the compiled modules only when they were built from today's sources."""
    global state, reason
    why = _why_not_compiled()
    if why is None:
        state, reason = "compiled", "built from these sources"
        return
    state, reason = "python", why
    if not any(isinstance(f, _Sources) for f in sys.meta_path):
        sys.meta_path.insert(0, _Sources())
    if compiled_files() and not why.startswith("FOGKEEPER_ENGINE"):
        warnings.warn(f"fogkeeper: the engine runs as plain Python: {why}", stacklevel=2)


def describe() -> str:
    return "compiled (mypyc)" if state == "compiled" else f"plain Python ({reason})"

"""No staff page, API view or portal page evaluates an establishment again: the write
services do, on commit (fogkeeper/reevaluation.py). A page that called the sweep itself
would be a write path that forgets it elsewhere."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "fogkeeper"
AREAS = ("web", "api", "portal")
# the re-evaluation and the sweep of a batch, wherever they are imported from
NAMES = {
    "sweep_establishment",
    "sweep_ids",
    "reevaluate",
    "reevaluate_now",
    "reevaluate_batch",
    "reevaluate_on_commit",
    "reevaluate_ids_on_commit",
    "flush",
    "REEVALUATE",
}
MODULES = {"fogkeeper.compliance.resweep", "fogkeeper.compliance.sweep.sweep_ids"}


def problems(root: Path = ROOT) -> list[str]:
    found = []
    for area in AREAS:
        for path in sorted((root / area).rglob("*.py")):
            where = path.relative_to(root)
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                found += [f"{where}:{node.lineno} {what}" for what in _reevaluates(node)]
    return found


def _reevaluates(node: ast.AST) -> list[str]:
    if isinstance(node, ast.ImportFrom):
        names = {a.name for a in node.names}
        if node.module in MODULES or names & NAMES:
            return [f"imports {', '.join(sorted(names & NAMES) or names)} from {node.module}"]
    if isinstance(node, ast.Import):
        return [f"imports {a.name}" for a in node.names if a.name in MODULES]
    if isinstance(node, ast.Attribute) and node.attr in NAMES:
        return [f"uses .{node.attr}"]
    if isinstance(node, ast.Constant) and node.value == "reevaluate":
        return ["asks for reevaluate by name"]
    return []


def test_no_view_api_view_or_portal_page_evaluates_an_establishment_again():
    assert problems() == []


def test_the_check_finds_a_view_that_calls_the_sweep(tmp_path):
    for area in AREAS:
        (tmp_path / area).mkdir()
    (tmp_path / "portal" / "views.py").write_text(
        "from fogkeeper.compliance.resweep import sweep_establishment\n\n"
        "def page(request, fse):\n    sweep_establishment(fse, as_of=None)\n"
    )
    (tmp_path / "api" / "views.py").write_text(
        "from fogkeeper import queue\n\ndef view(fse):\n    queue.reevaluate(1, [fse.pk])\n"
    )
    assert problems(tmp_path) == [
        "api/views.py:4 uses .reevaluate",
        "portal/views.py:1 imports sweep_establishment from fogkeeper.compliance.resweep",
    ]

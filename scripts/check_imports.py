"""The import check: no module of fogkeeper imports from a higher layer (fogkeeper/layers.py),
and no modules import each other round a circle; the ways up a layer that an import does not
show are each listed there: every task defined, and every package that queues it by name
(TASKS); every function provided at start-up, who provides it and who calls it (UPCALLS).

    python scripts/check_imports.py [ROOT]     # ROOT: the fogkeeper package (default)

Every import is counted, at the top of a module or inside a function (an import moved into
a function still ties the two modules together), but not those under `if TYPE_CHECKING:`
and not migrations. Prints each problem and exits 1 when there is one.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import sys
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent / "fogkeeper"


def modules(root: Path) -> dict[str, Path]:
    """Dotted name -> file, for every module of the package at `root` but migrations."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


class Source(NamedTuple):
    """What the checks read of a module, in ast.walk's order: its imports (less those under
    `if TYPE_CHECKING:`), its string constants and calls, its `from … import`s."""

    imports: tuple[ast.Import | ast.ImportFrom, ...]
    named: tuple[ast.Constant | ast.Call, ...]
    imported_from: tuple[ast.ImportFrom, ...]


def source(path: Path) -> Source:
    """The module at `path`, parsed and walked once for every check however many read it
    (and however many copies of the package hold the same text: tests/test_layers.py)."""
    try:
        return parse(path.read_text(encoding="utf-8"))
    except SyntaxError as e:
        e.filename = str(path)
        raise


@functools.cache
def parse(text: str) -> Source:
    """A module's text read once, for the process (a test may clear it: parse.cache_clear)."""
    nodes = list(ast.walk(ast.parse(text)))
    skipped = _type_checking_only(nodes)
    return Source(
        imports=tuple(
            n for n in nodes if isinstance(n, ast.Import | ast.ImportFrom) and id(n) not in skipped
        ),
        named=tuple(n for n in nodes if _constant(n) is not None or isinstance(n, ast.Call)),
        imported_from=tuple(n for n in nodes if isinstance(n, ast.ImportFrom)),
    )


def _type_checking_only(nodes: list[ast.AST]) -> set[int]:
    skipped: set[int] = set()
    for node in nodes:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for n in ast.walk(node))
    return skipped


def _named(node: ast.AST, module: str, is_package: bool, known: dict) -> list[str]:
    """The dotted names an import statement reaches, as modules of `known` where it can."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        here = module.split(".") if is_package else module.split(".")[:-1]
        here = here[: len(here) - (node.level - 1)]
        base = ".".join(here + ([base] if base else []))
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]


def imports(root: Path) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports."""
    known = modules(root)
    top = root.name
    graph: dict[str, set[str]] = defaultdict(set)
    for module, path in known.items():
        for node in source(path).imports:
            for name in _named(node, module, path.name == "__init__.py", known):
                while name and name not in known:
                    name = name.rpartition(".")[0]
                if name and name != module and name.split(".")[0] == top:
                    graph[module].add(name)
    return graph


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def upward(graph: dict[str, set[str]], layers) -> list[tuple[str, str]]:
    """(importer, imported) for each import into a higher layer."""
    level = {part: i for i, layer in enumerate(layers) for part in layer}
    found = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            if level[_part(target)] > level[_part(module)]:
                found.append((module, target))
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other round a circle (Tarjan's strongly
    connected components of more than one module), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(groups)


def _layers(root: Path):
    spec = importlib.util.spec_from_file_location("_layers", root / "layers.py")
    assert spec is not None and spec.loader is not None
    layers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(layers)
    return layers


def problems(root: Path = PACKAGE) -> list[str]:
    """Every import that breaks the layers of `root`/layers.py, and every circle."""
    layers = _layers(root)
    found = modules(root)
    named = {part for layer in layers.LAYERS for part in layer}
    out = [
        f"{part} is in no layer of {root.name}/layers.py"
        for part in sorted({_part(m) for m in found} - named)
    ]
    if out:
        return out
    graph = imports(root)
    out += [f"{a} imports {b}, of a higher layer" for a, b in upward(graph, layers.LAYERS)]
    out += ways_up(root, layers)
    for group in circles(graph):
        inside = sorted((a, b) for a in group for b in graph[a] if b in group)
        out.append(
            f"circle of {len(group)} modules: {', '.join(group)} "
            f"({'; '.join(f'{a} -> {b}' for a, b in inside)})"
        )
    return out


def _constant(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _called(node: ast.AST) -> str:
    func = getattr(node, "func", None)
    return getattr(func, "id", None) or getattr(func, "attr", "")


def ways_up(root: Path, layers) -> list[str]:
    """Each task or function named up a layer that layers.TASKS or layers.UPCALLS does not
    list, or lists wrongly, and each listed that the code no longer has."""
    tasks, upcalls = layers.TASKS, layers.UPCALLS
    out, defined, provided = [], set(), set()
    for module, path in modules(root).items():
        part = _part(module)
        if part == "layers":
            continue
        for node in source(path).named:
            task = _constant(node)
            if task in tasks and part not in tasks[task][1] and part != tasks[task][0]:
                out.append(f"{module} names task {task}; TASKS does not list {part}")
            if not isinstance(node, ast.Call):
                continue
            name, first = _called(node), _constant(node.args[0] if node.args else None)
            named = {k.arg: _constant(k.value) for k in node.keywords}
            if name == "shared_task" and named.get("name"):
                task = named["name"]
                defined.add(task)
                if tasks.get(task, ("",))[0] != part:
                    out.append(f"{module} defines task {task}, not listed as {part}'s in TASKS")
            elif name in ("enqueue", "beside", "task") and first is not None:
                if first not in tasks:
                    out.append(f"{module} queues {first}, a task not listed in TASKS")
                elif part not in tasks[first][1] and part != tasks[first][0]:
                    out.append(f"{module} queues {first}; TASKS does not list {part}")
            elif name == "provide" and first is not None:
                provided.add(first)
                if upcalls.get(first, ("",))[0] != part:
                    out.append(f"{module} provides {first}, not listed as {part}'s in UPCALLS")
            elif (
                name == "provider"
                and first is not None
                and module != f"{root.name}.upcalls"
                and part not in upcalls.get(first, ("", ()))[1]
            ):
                out.append(f"{module} calls {first}; UPCALLS does not list {part}")
        out += _upcalls_imported(module, path, upcalls, root.name)
    out += [f"TASKS lists {t}, defined nowhere" for t in sorted(set(tasks) - defined)]
    out += [f"UPCALLS lists {u}, provided nowhere" for u in sorted(set(upcalls) - provided)]
    return out


def _upcalls_imported(module: str, path: Path, upcalls, package: str) -> list[str]:
    """A module that imports a function of upcalls.py named for a call up is its caller."""
    out = []
    for node in source(path).imported_from:
        if node.module == f"{package}.upcalls":
            for alias in node.names:
                if alias.name in upcalls and _part(module) not in upcalls[alias.name][1]:
                    out.append(f"{module} calls {alias.name}; UPCALLS does not list it")
    return out


def main(argv: list[str]) -> int:
    root = Path(argv[0]).resolve() if argv else PACKAGE
    found = problems(root)
    for line in found:
        print(line)
    print(f"check-imports: {len(found)} problem(s) in {root}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

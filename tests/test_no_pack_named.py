"""No code names a pack (issue 26): what differs between jurisdictions is in their packs and
their written demo programs, so an agency with a third ordinance runs fogkeeper from its pack
alone. Every string in fogkeeper's Python code, docstrings included (migrations aside, which
record history), is read for the id of a bundled pack."""

from __future__ import annotations

import ast
from pathlib import Path

import fogkeeper
from fogkeeper.rules.packs import default_registry

ROOT = Path(fogkeeper.__file__).resolve().parent


def pack_names(ids: list[str]) -> set[str]:
    return {name for pack_id in ids for name in (pack_id, pack_id.replace("-", "_"))}


def named(source: str, names: set[str]) -> list[tuple[int, str]]:
    """(line, string) of each string constant of `source` that holds one of `names`."""
    return [
        (node.lineno, node.value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and any(name in node.value for name in names)
    ]


def test_no_module_of_the_application_names_a_bundled_pack():
    names = pack_names(default_registry().ids())
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for line, text in named(path.read_text(encoding="utf-8"), names):
            found.append(f"{path.relative_to(ROOT.parent)}:{line}: {text[:60]!r}")
    assert found == [], "code names a pack:\n" + "\n".join(found)


def test_it_finds_a_pack_named_in_code_or_a_docstring_and_not_in_a_comment():
    names = pack_names(["san-clemente"])
    source = (
        "def f(pack):\n"
        '    """As san_clemente does."""\n'
        "    # san-clemente in a comment is prose\n"
        '    return pack.id == "san-clemente"\n'
    )
    assert named(source, names) == [(2, "As san_clemente does."), (4, "san-clemente")]

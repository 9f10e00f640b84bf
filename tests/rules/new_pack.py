"""A pack made by `fogkeeper packs new`, filled in as its author would."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

PLACEHOLDER = re.compile(r'"TODO: ([^"]*)"')


def fill(folder: Path) -> None:
    """Each placeholder "TODO: what to decide, as an example" replaced by its example, as an
    author whose ordinance says just that would: a number, date, list or map written bare, a
    text kept in its quotes."""
    for path in folder.glob("*.yaml"):
        text = path.read_text(encoding="utf-8").replace('"TODO: wq-2022-0103-dwq or none"', "none")
        text = PLACEHOLDER.sub(_example, text)
        path.write_text(text, encoding="utf-8")


def _example(m: re.Match) -> str:
    example = m[1].rpartition(", as ")[2]
    try:
        bare = not isinstance(yaml.safe_load(example), str)
    except yaml.YAMLError:
        bare = False
    return example if bare else f'"{example}"'

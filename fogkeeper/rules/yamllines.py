"""Where each key of a YAML file is: the line of every mapping key and list item, by the
path `packs check` names it with (`rules.gcd.missing`, `holidays.list[2].month`,
`gcd.accumulation_limit.values.2009-08-20`, `[3]` for an item of a top-level list)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from ..safeload import Refused, _Loader, check_yaml


def key_lines(path: Path) -> dict[str, int]:
    """Path of each key and list item -> its line (1-based); empty when the file does not
    parse (its problem names the line itself)."""
    try:
        text = path.read_text(encoding="utf-8")
        check_yaml(text)  # the walk below follows every alias, as deep as the file goes
        # the loader the pack is read with: libyaml reads `{when: date?}`, PyYAML's own does not
        root = yaml.compose(text, Loader=_Loader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError, Refused):
        return {}
    lines: dict[str, int] = {}
    _walk(root, "", lines)
    return lines


def _walk(node: yaml.Node | None, prefix: str, lines: dict[str, int]) -> None:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            here = f"{prefix}.{key.value}" if prefix else str(key.value)
            lines.setdefault(here, key.start_mark.line + 1)
            _walk(value, here, lines)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            here = f"{prefix}[{i}]"
            lines.setdefault(here, item.start_mark.line + 1)
            _walk(item, here, lines)


def line_of(lines: dict[str, int], key: str) -> int | None:
    """The line of `key`, or of the nearest key above it that the file has (a problem may
    name a key that is missing, under one that is there)."""
    if key not in lines and " " in key:  # a deadline named after its index: `deadlines[0] appeal`
        named = re.sub(r" [^.\[ ]+", "", key)
        if named in lines:
            return lines[named]
    while key:
        if key in lines:
            return lines[key]
        cut = max(key.rfind("."), key.rfind("["), key.rfind(" "))
        if cut <= 0:
            return None
        key = key[:cut]
    return None

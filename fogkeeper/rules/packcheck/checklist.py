"""checklist.yaml: the inspection items, each cited."""

from __future__ import annotations

from typing import Any

from .common import _Pack, _text, _unknown_keys

# checklist.yaml


def _check_checklist(pk: _Pack, data: Any) -> int:
    f = "checklist.yaml"
    if data is None:
        return 0
    if not isinstance(data, list):
        pk.add(f, "", "expected a list of {item, question, citation}")
        return 0
    seen: dict[str, int] = {}
    for i, entry in enumerate(data):
        here = f"[{i}]"
        if not isinstance(entry, dict):
            pk.add(f, here, "expected {item, question, citation}")
            continue
        item = entry.get("item")
        if _text(item):
            here = f"[{i}] {item}"
            if item in seen:
                pk.add(f, here, f"item {item!r} is already item [{seen[item]}]")
            seen.setdefault(item, i)
            if item in pk.rules:
                pk.add(f, here, f"{item!r} is also a rule of pack.yaml")
        else:
            pk.add(f, here, "no item id")
        _unknown_keys(pk, f, here, entry, ("item", "question", "citation"))
        if not _text(entry.get("question")):
            pk.add(f, here, "no question")
        pk.cited(f, here, entry)
    return len(seen)

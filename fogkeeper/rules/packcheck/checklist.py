"""checklist.yaml: the inspection items, each cited, each with the words of its finding."""

from __future__ import annotations

from typing import Any

from .common import _Pack, _text, _unknown_keys

# checklist.yaml

_SHAPE = "{item, question, finding, citation}"


def _check_checklist(pk: _Pack, data: Any) -> int:
    f = "checklist.yaml"
    if data is None:
        return 0
    if not isinstance(data, list):
        pk.add(f, "", f"expected a list of {_SHAPE}")
        return 0
    seen: dict[str, int] = {}
    for i, entry in enumerate(data):
        here = f"[{i}]"
        if not isinstance(entry, dict):
            pk.add(f, here, f"expected {_SHAPE}")
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
        _unknown_keys(pk, f, here, entry, ("item", "question", "finding", "citation"))
        if not _text(entry.get("question")):
            pk.add(f, here, "no question")
        _check_finding(pk, f, here, entry.get("finding"))
        pk.cited(f, here, entry)
    return len(seen)


def _check_finding(pk: _Pack, f: str, here: str, finding: Any) -> None:
    """The words of the finding when the answer is not compliant: what was found, as a letter
    states it ("No 12-month pump-out log was kept on site"), not the inspector's question."""
    if not _text(finding):
        pk.add(
            f,
            here,
            "no finding (the words of the finding when the answer is not compliant: "
            "what was found, as a statement)",
        )
    elif finding.strip().endswith("?"):
        pk.add(f, here, "the finding is a question: say what was found, as a statement")

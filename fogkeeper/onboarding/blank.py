"""The blank spreadsheet of a kind of record, for an agency to fill in: its columns with an
example row and, in XLSX, a second sheet saying what each column means, which words the
agency's ordinance allows (its categories, device kinds, checklist items) and which columns
identify a record (a row with the same ones updates it)."""

from __future__ import annotations

import tablib

from .catalog import KINDS


def blank(kind: str, pack, file_format: str) -> bytes:
    spec = KINDS[kind]
    rows = tablib.Dataset(headers=[c.name for c in spec.columns], title=spec.name)
    rows.append([c.example for c in spec.columns])
    if file_format == "csv":
        return rows.export("csv").encode("utf-8")
    about = tablib.Dataset(headers=["column", "required", "meaning"], title="columns")
    for column in spec.columns:
        about.append(
            [column.name, "yes" if column.required else "no", _meaning(spec, column, pack)]
        )
    return tablib.Databook([rows, about]).export("xlsx")


def _meaning(spec, column, pack) -> str:
    words = {
        "category": pack.categories,
        "kind": pack.device_kinds if spec.name == "devices" else None,
        "item": pack.checklist,
    }.get(column.name)
    meaning = column.meaning if words is None else f"{column.meaning}: {', '.join(words)}"
    if column.name in spec.key:
        meaning += f" (with {', '.join(spec.key)}: what identifies the record; a row with the "
        meaning += "same ones updates it, and the same file imported twice changes nothing)"
        if len(spec.key) == 1:
            meaning = meaning.replace(f"(with {spec.key[0]}: what", "(what")
    return meaning

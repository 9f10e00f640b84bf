"""The blank spreadsheet of a kind of record, for an agency to fill in: its columns with an
example row and, in XLSX, a second sheet saying what each column means and which words the
agency's ordinance allows (its categories, its device kinds)."""

from __future__ import annotations

import tablib

from .kinds import KINDS


def blank(kind: str, pack, file_format: str) -> bytes:
    spec = KINDS[kind]
    rows = tablib.Dataset(headers=[c.name for c in spec.columns], title=spec.name)
    rows.append([c.example for c in spec.columns])
    if file_format == "csv":
        return rows.export("csv").encode("utf-8")
    about = tablib.Dataset(headers=["column", "required", "meaning"], title="columns")
    for column in spec.columns:
        about.append([column.name, "yes" if column.required else "no", _meaning(column, pack)])
    return tablib.Databook([rows, about]).export("xlsx")


def _meaning(column, pack) -> str:
    words = {"category": pack.categories, "kind": pack.device_kinds}.get(column.name)
    if words is None:
        return column.meaning
    return f"{column.meaning}: {', '.join(words)}"

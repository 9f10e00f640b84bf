"""The annual report as documents: its bar charts (drawn here as SVG geometry, no script), the
PDF (WeasyPrint, on the agency's letterhead, from reporting/layout/annual.html) and the Excel
workbook (openpyxl: a "Figures" sheet, then a sheet for each figure's table)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from django.template import Context, Engine

from fogkeeper.formats import neutralise

from .annual import AnnualReport, Figure

LAYOUT = Path(__file__).resolve().parent / "layout"
PAGE_TEMPLATES = Path(__file__).resolve().parents[1] / "web" / "reports" / "templates"
CHARTS = ("spills_by_category", "enforcement", "pump_outs")  # the figures drawn as bars
CHART_WIDTH = 640
LABEL_WIDTH = 250
ROW_HEIGHT = 26
BAR_HEIGHT = 16
BAR_SPACE = CHART_WIDTH - LABEL_WIDTH - 50  # room for the value after the longest bar


@dataclass
class Bar:
    label: str
    value: int
    y: int
    width: int

    @property
    def text_y(self) -> int:
        return self.y + BAR_HEIGHT - 3

    @property
    def value_x(self) -> int:
        return LABEL_WIDTH + self.width + 6


@dataclass
class Chart:
    key: str
    title: str
    bars: list[Bar] = field(default_factory=list)
    width: int = CHART_WIDTH
    label_width: int = LABEL_WIDTH
    bar_height: int = BAR_HEIGHT

    @property
    def height(self) -> int:
        return max(len(self.bars), 1) * ROW_HEIGHT + 8

    @property
    def description(self) -> str:
        return "; ".join(f"{b.label}: {b.value}" for b in self.bars) or "nothing to show"


def bar_chart(figure: Figure) -> Chart:
    """Horizontal bars of a figure's table (label, count), the longest as wide as there is
    room for; a bar of nothing is drawn as a hairline so that its row still reads."""
    assert figure.table is not None  # each figure of CHARTS has its table
    rows = [(str(row[0]), int(row[-1] or 0)) for row in figure.table.rows]
    top = max((n for _, n in rows), default=0) or 1
    chart = Chart(key=figure.key, title=figure.label)
    for i, (label, n) in enumerate(rows):
        width = max(round(BAR_SPACE * n / top), 1)
        chart.bars.append(Bar(label=label, value=n, y=4 + i * ROW_HEIGHT, width=width))
    return chart


def with_charts(report: AnnualReport) -> list[tuple[Figure, Chart | None]]:
    """Each figure with its chart, for those drawn (CHARTS)."""
    return [(f, bar_chart(f) if f.key in CHARTS else None) for f in report.figures]


def filename(report: AnnualReport, extension: str) -> str:
    """The agency's code, the year and the kind, e.g. SC-annual-report-2026.pdf"""
    code = re.sub(r"[^A-Za-z0-9._-]+", "-", report.agency.code).strip("-") or "agency"
    return f"{code}-annual-report-{report.year}.{extension}"


# -- PDF --------------------------------------------------------------------------------------


def _layout() -> Engine:
    """The PDF's own layout (reporting/layout/, with its print stylesheet, kept apart from the
    pages' templates, which carry no inline style), and the pages' chart and table includes."""
    return Engine(
        dirs=[str(LAYOUT), str(PAGE_TEMPLATES)],
        autoescape=True,
        libraries={"words": "fogkeeper.web.templatetags.words"},
    )


def annual_pdf(report: AnnualReport) -> bytes:
    from fogkeeper.enforcement.letters import _folder, _pdf

    pack = report.agency.get_pack()
    context = {"report": report, "figures": with_charts(report), "titles": pack.titles}
    html = _layout().get_template("annual.html").render(Context({**context, "pack": pack}))
    return _pdf(html, _folder(pack))  # nothing fetched from outside the pack's letters


# -- workbook ---------------------------------------------------------------------------------


def _cell(value):
    return neutralise(value) if isinstance(value, str) else value


def _sheet_name(label: str, used: set[str]) -> str:
    name = re.sub(r"[\[\]:*?/\\]", " ", label)[:31].strip() or "Table"
    base, n = name, 2
    while name.lower() in used:
        suffix = f" ({n})"
        name, n = base[: 31 - len(suffix)] + suffix, n + 1
    used.add(name.lower())
    return name


def annual_workbook(report: AnnualReport, out: str | IO[bytes]) -> None:
    """Write the workbook to `out` (a path or a binary file)."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    book = Workbook()
    sheet = book.worksheets[0]  # its active sheet, typed
    sheet.title = "Figures"
    sheet.append([_cell(f"{report.agency.name}: FOG program annual report {report.year}")])
    sheet.append([_cell(f"From {report.start.isoformat()} to {report.end.isoformat()}")])
    sheet.append([])
    sheet.append(["Figure", "Value", "How computed"])
    for cell in sheet[4]:
        cell.font = Font(bold=True)
    for f in report.figures:
        sheet.append([_cell(f.label), _cell(f.value), _cell(f.how)])
        if f.money:
            sheet.cell(row=sheet.max_row, column=2).number_format = '"$"#,##0.00'
        sheet.cell(row=sheet.max_row, column=3).alignment = Alignment(wrap_text=True)
    sheet.column_dimensions["A"].width = 60
    sheet.column_dimensions["B"].width = 18
    sheet.column_dimensions["C"].width = 100
    used = {"figures"}
    for f in report.figures:
        if f.table is None:
            continue
        table = book.create_sheet(_sheet_name(f.label, used))
        table.append([_cell(f.label)])
        table.append([_cell(c) for c in f.table.columns])
        for cell in table[2]:
            cell.font = Font(bold=True)
        for row in f.table.rows:
            table.append([_cell(v) for v in row])
        table.column_dimensions["A"].width = 50
    book.save(out)

"""No export writes a live formula: every export URL of the staff pages, as CSV and as a
workbook, over the demo program with text fields that begin like a formula (OWASP's CSV
injection: =, +, -, @, tab, carriage return; also after spaces, and their full-width forms).
A guard test finds the export views in the URL conf, so a new export is driven here too."""

from __future__ import annotations

import csv
import inspect
import io
import re
from datetime import date
from io import StringIO
from itertools import cycle

import pytest
import time_machine
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver
from openpyxl import load_workbook

from fogkeeper.audit.models import AuditEvent
from fogkeeper.incidents.models import Incident
from fogkeeper.registry.models import (
    Agency,
    FoodServiceEstablishment,
    Hauler,
    Operator,
    SewerSegment,
)
from fogkeeper.web.common.exports import neutralise
from tests.web.people import PASSWORD, make_user

pytestmark = pytest.mark.django_db

AS_OF = date(2026, 11, 30)
LIVE = ["=", "+", "-", "@", "\t", "\r", " =", "\u3000+", "\uff1d", "\uff0b", "\uff0d", "\uff20"]
# a cell a spreadsheet would run: after any spaces, one of these
_LIVE_START = re.compile(r"^[\t\r]|^\s*[=+\-@\uff1d\uff0b\uff0d\uff20]")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?(E-?\d+)?$")

# Every export: (URL, what to ask for it, the parameter naming its format)
EXPORTS = {
    "establishments": ("/establishments/", {}, "export"),
    "findings": ("/findings/", {}, "export"),
    "invoices": ("/invoices/", {}, "export"),
    "enforcement_actions": ("/enforcement/actions/", {}, "export"),
    "inspections": ("/inspections/", {}, "export"),
    "services": ("/pump-outs/", {}, "export"),
    "trainings": ("/trainings/", {}, "export"),
    "incidents": ("/incidents/", {"as_of": AS_OF}, "export"),
    "segments": ("/registry/segments/", {}, "export"),
    "cases": ("/cases/", {"as_of": AS_OF}, "export"),
    "audit": ("/audit/", {}, "export"),
    "establishment_audit": ("/establishments/{code}/audit/", {}, "export"),
    "calendar_csv": ("/calendar/calendar.csv", {"as_of": AS_OF, "weeks": 26}, None),
    "annual_report": ("/reports/annual/", {"year": 2025}, "format"),
}
FORMATS = {"calendar_csv": ("csv",), "annual_report": ("xlsx",)}  # the others: both


def _program(client):
    """The demo program of San Clemente with a formula at the start of its text fields: its
    establishments, operators, haulers, sewer segments, spills and audit rows' reasons, each
    way a formula starts in turn. Signed in as its auditor; its first establishment."""
    with time_machine.travel(AS_OF, tick=False):
        call_command("demo", "--as-of", AS_OF.isoformat(), stdout=StringIO())
    agency = Agency.objects.get(code="san-clemente")
    for model, fields in (
        (FoodServiceEstablishment, ("name", "address")),
        (Operator, ("name",)),
        (Hauler, ("name",)),
        (SewerSegment, ("description",)),
        (Incident, ("cause", "address")),
        (AuditEvent, ("reason",)),
    ):
        rows = model.objects.filter(agency=agency).order_by("pk").values_list("pk", flat=True)
        for start, pk in zip(cycle(LIVE), rows, strict=False):
            model.objects.filter(pk=pk).update(**{f: f"{start}1+1 {f}" for f in fields})
    user = make_user("auditor-x", agency, role="auditor")
    client.login(username=user.username, password=PASSWORD)
    return FoodServiceEstablishment.objects.filter(agency=agency).order_by("pk").first()


def _live(value) -> bool:
    return isinstance(value, str) and bool(_LIVE_START.match(value)) and not _NUMBER.match(value)


def _cells(fmt: str, response) -> list:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if fmt == "csv":
        return [c for row in csv.reader(io.StringIO(body.decode("utf-8-sig"))) for c in row]
    book = load_workbook(io.BytesIO(body))
    cells = [c for sheet in book for row in sheet.iter_rows() for c in row]
    return [f"formula in {c.coordinate}" if c.data_type == "f" else c.value for c in cells]


def _problems(client, fse, name: str, fmt: str) -> list[str]:
    url, params, key = EXPORTS[name]
    params = {**params, **({key: fmt} if key else {})}
    with time_machine.travel(AS_OF, tick=False):
        response = client.get(url.format(code=fse.code), params)
    if response.status_code != 200:
        return [f"{name} {fmt}: answered {response.status_code}"]
    cells = _cells(fmt, response)
    found = [f"{name} {fmt}: {c!r}" for c in cells if _live(c) or str(c).startswith("formula")]
    if not any(isinstance(c, str) and "1+1 " in c for c in cells):
        found.append(f"{name} {fmt}: no text of the program to test")
    return found


def test_no_export_writes_a_live_cell(client):
    """Every export, CSV and workbook (one program built once: the demo takes seconds)."""
    fse = _program(client)
    problems = [
        p
        for name in EXPORTS
        for fmt in FORMATS.get(name, ("csv", "xlsx"))
        for p in _problems(client, fse, name, fmt)
    ]
    assert problems == []


@pytest.mark.parametrize("start", LIVE)
def test_it_neutralises_a_cell_that_starts_like_a_formula(start):
    assert not _live(neutralise(f"{start}1+1"))


def test_it_keeps_numbers_and_plain_text_as_they_are():
    assert [neutralise(v) for v in (-12.5, 3, "Pier -1", "", "e-mail")] == [
        -12.5,
        3,
        "Pier -1",
        "",
        "e-mail",
    ]


def _views(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _views(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p.name, inspect.unwrap(p.callback)


_EXPORTS_IN_CODE = re.compile(
    r"export_response\(|\b_export\(|_list_page\(|_trail_page\(|_xlsx\(|csv\.writer|annual_workbook"
)


def test_every_export_view_is_driven_here():
    """A view whose code writes CSV or a workbook (itself or through the shared helpers) is
    one of EXPORTS, by its URL name."""
    found = set()
    for _route, name, view in _views(get_resolver().url_patterns):
        try:
            source = inspect.getsource(view)
        except (OSError, TypeError):
            continue
        if _EXPORTS_IN_CODE.search(source):
            found.add(name)
    assert found - set(EXPORTS) == set()
    assert set(EXPORTS) - found == set()

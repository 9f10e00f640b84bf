"""A property (issue 37): hostile bytes uploaded to the onboarding page, as CSV or XLSX, by a
signed-in manager, never make a server error, and a refused file stores nothing: random
bytes, NULs and control characters, cells that start like a formula, huge cells, text that
is not UTF-8, broken and truncated ZIPs, a small decompression bomb, a cell far away. Each
dry run runs inline (no broker in the tests); a clean one is confirmed too. Bounded: 40
uploads."""

from __future__ import annotations

import io

import pytest
import xlsxwriter
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bench.xlsx_bomb import bomb
from fogkeeper.onboarding.models import Onboarding
from fogkeeper.registry.models import FoodServiceEstablishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

HEADER = ["code", "name", "address", "opened_on", "operator_name", "latitude"]
NASTY = [
    "\x00",
    "a\x00b",
    "\x01",
    "\x1b[0m",
    "\x7f",
    "=1+1",
    "+cmd|' /C calc'!A0",
    "@SUM(A1)",
    "-2+3",
    "\uff1d1",
    "\t=1",
    "'=1",
    "''+x",
    "-5",
    "x" * 300,
    "y" * 200_000,
    "é",
    "\u202e",
    "2026-02-30",
    "9999-12-31",
    "",
    '"',
    "\r\n",
    ",",
    "\ufeff",
]
CELL = st.one_of(st.sampled_from(NASTY), st.text(max_size=30))
ROW = st.lists(CELL, min_size=0, max_size=8)


def _csv(rows: list[list[str]], header: list[str]) -> str:
    def quoted(cell: str) -> str:
        return '"' + cell.replace('"', '""') + '"'

    return "\n".join(",".join(quoted(c) for c in row) for row in [header, *rows]) + "\n"


def _xlsx(rows: list[list[str]], far: bool) -> bytes:
    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"strings_to_formulas": False, "strings_to_numbers": False})
    sheet = book.add_worksheet()
    for number, row in enumerate([HEADER, *rows]):
        for column, cell in enumerate(row):
            sheet.write_string(number, column, cell.replace("\x00", ""))
    if far:
        sheet.write_string(1_048_575, 16_383, "far")
    book.close()
    return out.getvalue()


@st.composite
def hostile(draw) -> tuple[str, bytes]:
    """(file name, bytes) of an upload."""
    rows = draw(st.lists(ROW, max_size=4))
    header = [draw(st.sampled_from(["code", *NASTY[:12]])), *HEADER[1:]]
    form = draw(st.sampled_from(["csv", "latin-1", "utf-16", "xlsx", "broken", "random"]))
    if form == "csv":
        return "f.csv", _csv(rows, header).encode("utf-8", "surrogatepass")
    if form in ("latin-1", "utf-16"):
        return "f.csv", _csv(rows, header).encode(form, "replace")
    if form == "random":
        return draw(st.sampled_from(["f.csv", "f.xlsx"])), draw(st.binary(max_size=600))
    data = _xlsx(rows, far=draw(st.booleans()))
    if form == "xlsx":
        return "f.xlsx", data
    cut = draw(st.integers(0, len(data)))
    choice = draw(st.sampled_from(["truncated", "flipped", "bomb"]))
    if choice == "bomb":
        return "f.xlsx", bomb(8 * 1024 * 1024, lie=draw(st.booleans()))
    if choice == "truncated":
        return "f.xlsx", data[:cut]
    flipped = bytearray(data)
    flipped[min(cut, len(data) - 1)] ^= 0xFF
    return "f.xlsx", bytes(flipped)


@pytest.fixture
def manager(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    sc, _ = two_agencies()
    return make_user("manager", sc, role="manager")


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(upload=hostile())
@example(upload=("f.csv", b"co\x00de,name\nA,B\n"))  # a NUL in the header, in its message
@example(upload=("f.csv", b"code,name\nA," + b"y" * 200_000 + b"\n"))  # past csv's limit
def test_a_hostile_upload_is_never_a_server_error_and_a_refused_one_stores_nothing(
    client, manager, upload
):
    name, data = upload
    client.force_login(manager)
    before = FoodServiceEstablishment.objects.count()
    response = client.post(
        "/onboarding/",
        {"kind": "establishments", "file": SimpleUploadedFile(name, data)},
        follow=True,
    )
    assert response.status_code < 500, name
    run = Onboarding.objects.order_by("-pk").first()
    if run is None or response.status_code == 400:
        return
    page = response.content.decode()
    assert "Traceback" not in page and "Error(" not in page
    assert "unexpected error" not in run.error, run.error  # every refusal in its own words
    if not run.may_confirm:
        assert FoodServiceEstablishment.objects.count() == before, run.error
        return
    confirmed = client.post(f"/onboarding/{run.pk}/confirm/", follow=True)
    assert confirmed.status_code < 500
    imported = Onboarding.objects.get(checked=run)
    assert imported.status == Onboarding.COMPLETE, imported.error

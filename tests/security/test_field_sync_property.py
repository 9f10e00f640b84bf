"""A property (issue 37): hostile JSON sent to the field sync by a signed-in inspector (random
nesting, NULs and control characters, wrong types, huge numbers, impossible dates, ids of
another agency's records) never makes a server error; each refusal is JSON in words, and
stores nothing. Bounded: 60 sends, each with at most one small photo."""

from __future__ import annotations

import contextlib
import json
import uuid
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogkeeper.audit.models import AuditEvent
from fogkeeper.inspections.models import ChecklistAnswer, Inspection, InspectionPhoto, Measurement
from fogkeeper.inspections.snapshots import version_of
from fogkeeper.registry.models import Agency
from tests.images import png
from tests.records import make_device, make_establishment
from tests.web.field.test_field_app import SYNC, harbor, ines, inspection_of, sc  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ines")]

FORGED_ID = "00000000-0000-4000-8000-000000000001"  # an inspection of the Town's
DEEP = "DEEPLY-NESTED-"  # a text replaced by that many brackets once the JSON is written
# Where a hostile value goes: each place of an inspection's JSON, and one it has not.
PLACES = [
    ("code",),
    ("date",),
    ("notes",),
    ("signed_by",),
    ("agency",),
    ("establishment",),
    ("client_id",),
    ("version",),
    ("seen",),
    ("seen", "name"),
    ("seen", "devices"),
    ("seen", "devices", "GI-1"),
    ("seen", "devices", "GI-1", "kind"),
    ("answers",),
    ("answers", 0),
    ("answers", 0, "item"),
    ("answers", 0, "compliant"),
    ("answers", 0, "note"),
    ("answers", 0, "device"),
    ("measurements",),
    ("measurements", 0),
    ("measurements", 0, "device"),
    ("measurements", 0, "fog_inches"),
    ("measurements", 0, "solids_inches"),
    ("unheard_of",),
]
NASTY = [
    "\x00",
    "a\x00b",
    "\x1b[0m",
    "\x7f",
    "\u202e",
    "\ud800",
    "0001-01-01",
    "1899-12-31",
    "9999-12-31",
    "2025-02-30",
    "2025-13-01",
    "12/31/1899",
    "-1",
    "1e999999",
    "NaN",
    "",
    "x" * 5000,
    "town-10-02",
    "T-1",
    "GI-T",
    FORGED_ID,
    "FSE-Z",
    "GI-1",
    "bmp.spill_kit",
]
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.sampled_from([10**400, -(10**400), 2**63, -(2**63) - 1]),
    st.floats(),
    st.text(max_size=20),
    st.sampled_from(NASTY),
    st.integers(min_value=6, max_value=5000).map(lambda n: f"{DEEP}{n}"),
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


@pytest.fixture
def town():
    """The Town's establishment, device and inspection, for ids to forge."""
    other = make_establishment(Agency.objects.get(code="town-10-02"), code="T-1")
    make_device(other, "GI-T")
    Inspection.objects.create(
        establishment=other, code="T-I-1", date=date(2025, 6, 1), client_id=FORGED_ID
    )


@pytest.fixture
def entry(client):
    """Harbor Grill as the route gives it, before any example is stored (due no longer)."""
    return harbor(client)


def put(data: dict, place: tuple, value) -> None:
    """`value` at `place` in `data`, when the places above it are still there."""
    inner = data
    for step in place[:-1]:
        inner = _at(inner, step)
    if _at(inner, place[-1]) is not None or isinstance(inner, dict):
        inner[place[-1]] = value


def _at(inner, step):
    if isinstance(step, int):
        return inner[step] if isinstance(inner, list) and len(inner) > step else None
    return inner.get(step) if isinstance(inner, dict) else None


def written(data: dict) -> str:
    text = json.dumps(data)
    while DEEP in text:
        start = text.index(DEEP)
        end = text.index('"', start)
        depth = int(text[start + len(DEEP) : end])
        text = text[: start - 1] + "[" * depth + "]" * depth + text[end + 1 :]
    return text


def stored(root) -> tuple:
    files = sorted(p for p in Path(root).rglob("*") if p.is_file())
    models = (Inspection, ChecklistAnswer, Measurement, InspectionPhoto, AuditEvent)
    return (*(m.objects.count() for m in models), files)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    changes=st.lists(st.tuples(st.sampled_from(PLACES), VALUES), min_size=1, max_size=3),
    own_version=st.booleans(),
    photo=st.booleans(),
)
def test_hostile_json_is_refused_in_words_and_stores_nothing(
    client, settings, town, entry, changes, own_version, photo
):
    data = json.loads(json.dumps(inspection_of(entry, code=f"P-{uuid.uuid4().hex[:8]}")))
    for place, value in changes:
        put(data, place, value)
    if own_version and isinstance(data.get("seen"), dict):
        # a route copy tampered with, sent with the version it would have
        with contextlib.suppress(TypeError, ValueError, RecursionError):
            data["version"] = version_of(data["seen"])
    before = stored(settings.MEDIA_ROOT)
    files = {"photos": [png("trap.png")]} if photo else {}
    response = client.post(SYNC, {"inspection": written(data), **files})
    assert response.status_code < 500, response.content[:500]
    answer = response.json()
    if response.status_code in (200, 201):
        assert answer["inspection"]["establishment"] == "FSE-Z"  # never the Town's
        return
    assert answer["status"] == ("conflict" if response.status_code == 409 else "refused")
    if response.status_code == 400:
        assert answer["messages"] and all(isinstance(m, str) and m for m in answer["messages"])
        assert not any("Traceback" in m or "Error" in m for m in answer["messages"])
    assert stored(settings.MEDIA_ROOT) == before

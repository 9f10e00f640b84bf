"""The field sync refuses what the staff inspection form refuses (issue 37, item 4): a control
character or a date out of range anywhere in its JSON, JSON nested deeper than an inspection
is, a route's copy of the establishment tampered with, more photos than an inspection keeps;
each in words naming the field, as JSON, with nothing stored (fogkeeper/web/field/sync.py)."""

import json
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from fogkeeper.inspections.models import Inspection, InspectionPhoto
from fogkeeper.inspections.snapshots import version_of
from tests.images import png
from tests.web.field.test_field_app import SYNC, harbor, ines, inspection_of, sc  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ines")]


def stored_files(settings) -> list:
    from pathlib import Path

    return [p for p in Path(settings.MEDIA_ROOT).rglob("*") if p.is_file()]


def refused(response, settings, *words: str) -> list[str]:
    """The refusal's messages, after checking it is one, in words, and nothing was stored."""
    assert response.status_code == 400, response.content
    answer = response.json()
    assert answer["status"] == "refused"
    text = " ".join(answer["messages"])
    assert all(w in text for w in words), answer["messages"]
    assert "Traceback" not in text and "Error" not in text
    assert not Inspection.objects.filter(client_id__isnull=False).exists()
    assert not InspectionPhoto.objects.exists()
    assert stored_files(settings) == []
    return answer["messages"]


def put(data: dict, path: tuple, value) -> dict:
    """`data` with `value` at `path` ("answers", 0, "note")."""
    data = json.loads(json.dumps(data))
    inner = data
    for step in path[:-1]:
        inner = inner[step]
    inner[path[-1]] = value
    return data


def send(client, data, **files):
    text = data if isinstance(data, str) else json.dumps(data)
    return client.post(SYNC, {"inspection": text, **files})


# Each text of the JSON, and how the refusal names it.
TEXTS = [
    (("code",), "Inspection number"),
    (("notes",), "Notes"),
    (("signed_by",), "Signed by"),
    (("agency",), "Agency"),
    (("establishment",), "Establishment"),
    (("client_id",), "Inspection"),
    (("version",), "Route"),
    (("date",), "Date"),
    (("answers", 0, "item"), "Checklist, answer 1, checklist item"),
    (("answers", 0, "note"), "Checklist, answer 1, note"),
    (("measurements", 0, "device"), "Measurements, measurement 1, device"),
    (("measurements", 0, "fog_inches"), "Measurements, measurement 1, FOG depth"),
    (("seen", "name"), "Route, name"),
]


@pytest.mark.parametrize(("path", "name"), TEXTS, ids=["-".join(map(str, p)) for p, _ in TEXTS])
@pytest.mark.parametrize("character", ["\x00", "\x1b"], ids=["NUL", "ESC"])
def test_a_control_character_in_any_text_is_refused_naming_the_field(
    client, settings, path, name, character
):
    data = inspection_of(harbor(client), notes="kit empty")
    value = str(data.get(path[0]) if len(path) == 1 else "GI-1") + character
    response = send(client, put(data, path, value), photos=[png("trap.png")])
    refused(response, settings, f"“{name}” holds a control character")


def test_a_control_character_in_a_name_is_refused(client, settings):
    data = inspection_of(harbor(client))
    data["answers"][0]["no\x00te"] = "x"
    refused(send(client, data), settings, "“Checklist, answer 1, no�te” holds a control")


@pytest.mark.parametrize("day", ["0001-01-01", "1899-12-31", "12/31/1899"])
def test_a_date_out_of_range_is_refused(client, settings, day):
    response = send(client, inspection_of(harbor(client), date=day))
    refused(response, settings, "Date", "between 1900 and 9998")


@pytest.mark.parametrize("depth", [12, 100_000])
def test_json_nested_deeper_than_an_inspection_is_refused(client, settings, depth):
    data = json.dumps(inspection_of(harbor(client), notes="NESTED"))
    text = data.replace('"NESTED"', "[" * depth + "]" * depth)
    refused(send(client, text), settings, "nested deeper than an inspection is")


@pytest.mark.parametrize(
    "seen",
    [
        {"devices": {"GI-1": "a trap"}},
        {"devices": ["GI-1"]},
        {"devices": 5},
        {"name": {"first": "Harbor"}},
        {"devices": {"GI-1": {"kind": ["interceptor"]}}},
    ],
)
def test_a_tampered_route_copy_is_refused_even_with_its_own_version(client, settings, seen):
    fse = harbor(client)
    tampered = {**fse["seen"], **seen}
    data = inspection_of(fse, seen=tampered, version=version_of(tampered))
    refused(send(client, data), settings, "Route: The route's copy of Harbor Grill is damaged")


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("code", 17, "Inspection number: give it as text"),
        ("notes", ["a", "b"], "Notes: give it as text"),
        ("establishment", {"code": "FSE-Z"}, "Establishment: give it as text"),
        ("version", 7, "Download the route again"),
        ("answers", [{"item": "bmp.spill_kit", "compliant": False, "note": "n" * 501}],
         "Checklist: Ensure this value has at most 500 characters"),
        ("answers", [{"item": ["bmp.spill_kit"], "compliant": False}],
         "Checklist, answer 1, checklist item: give it as text"),
        ("measurements", [{"device": {"GI": 1}, "fog_inches": 1}],
         "Measurements, measurement 1, device: give it as text"),
    ],
)  # fmt: skip
def test_the_fields_of_the_staff_form_are_checked_as_it_checks_them(
    client, settings, field, value, words
):
    refused(send(client, inspection_of(harbor(client), **{field: value})), settings, words)


def test_more_photos_than_an_inspection_keeps_are_refused(client, settings):
    settings.FOGKEEPER_INSPECTION_MAX_PHOTOS = 2
    data = inspection_of(harbor(client))
    response = send(client, data, photos=[png(f"trap-{i}.png") for i in range(3)])
    refused(response, settings, "Photos: 3 photos came with it; an inspection keeps at most 2.")
    response = send(client, data, photos=[png("a.png"), png("b.png")])
    assert response.status_code == 201, response.content
    assert InspectionPhoto.objects.count() == 2


def test_photos_larger_together_than_an_inspection_keeps_are_refused(client, settings):
    photos = [png(f"trap-{i}.png", (200, 200)) for i in range(3)]
    settings.FOGKEEPER_INSPECTION_MAX_PHOTO_BYTES = 2 * photos[0].size
    response = send(client, inspection_of(harbor(client)), photos=photos)
    refused(response, settings, "Photos: The photos are", "together; an inspection's photos may")


def test_a_lone_surrogate_a_json_escape_makes_is_refused(client, settings):
    data = inspection_of(harbor(client), notes="\ud800")  # json.dumps writes it as \ud800
    refused(send(client, data), settings, "“Notes” is not valid UTF-8 text")


def test_a_body_longer_than_any_inspection_is_refused_before_it_is_read(client, settings):
    """By the length it declares: the photos of a 278 MB sync were stored before (413)."""
    settings.FOGKEEPER_MAX_REQUEST_BYTES = 64 * 1024
    photos = [SimpleUploadedFile(f"trap-{i}.png", os.urandom(32 * 1024)) for i in range(4)]
    response = client.post(
        SYNC,
        {"inspection": json.dumps(inspection_of(harbor(client))), "photos": photos},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 413, response.content
    assert response.json()["messages"][0].startswith("The request is 129 KB; at most 64 KB are")
    assert not Inspection.objects.filter(client_id__isnull=False).exists()
    assert stored_files(settings) == []


def test_a_form_that_cannot_be_read_is_refused_in_json(client):
    """The field app reads JSON: a multipart body Django cannot parse was an HTML page."""
    body = b"--x\r\nContent-Disposition: form-data; name=inspection\r\n\r\n{}\r\n--y--"
    response = client.post(
        SYNC, body, content_type="multipart/form-data; boundary=", HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["messages"] == [response.json()["detail"]]
    assert "The form could not be read" in response.json()["detail"]

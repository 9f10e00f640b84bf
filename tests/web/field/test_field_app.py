"""The field app's server side (fogkeeper/web/field/): the day's route it downloads, the sync
that stores each inspection once and answers a conflict or a refusal in words, its manifest
and service worker, and an inspection's page with the operator's receipt."""

import base64
import io
import json
import uuid
from datetime import date

import pytest
from django.contrib.staticfiles import finders
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pypdf import PdfReader

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.inspections.models import Inspection
from fogkeeper.inspections.snapshots import version_of
from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from tests.images import png
from tests.records import make_device, make_establishment, make_incident, make_inspection
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

ROUTE = "/inspections/field/route.json?as_of=2025-06-30"
SYNC = "/inspections/field/sync/"
AS_OF = date(2025, 6, 30)


@pytest.fixture
def sc(settings, tmp_path):
    """Harbor Grill (an overflow since) and Quiet Cafe, both inspected a year ago, due now."""
    settings.MEDIA_ROOT = tmp_path
    sc, _ = two_agencies()
    for code, name in (("FSE-Q", "Quiet Cafe"), ("FSE-Z", "Harbor Grill")):
        make_establishment(sc, code=code, name=name, opened_on="2020-01-01")
    harbor = FoodServiceEstablishment.objects.get(code="FSE-Z")
    make_device(harbor, "GI-1", design_depth_inches=48, installed_on="2020-01-01")
    make_inspection(harbor, "I-1", "2024-06-28", answers=[("bmp.spill_kit", False)])
    make_inspection(FoodServiceEstablishment.objects.get(code="FSE-Q"), "I-2", "2024-06-28")
    make_incident(harbor, "SSO-1", "2025-03-01", kind="overflow", attributed=True)
    sweep_agency(sc, as_of=AS_OF)
    return sc


@pytest.fixture
def ines(client, sc):
    user = make_user("ines", sc)
    client.force_login(user)
    return user


def harbor(client) -> dict:
    return next(f for f in client.get(ROUTE).json()["establishments"] if f["code"] == "FSE-Z")


def inspection_of(fse: dict, **fields) -> dict:
    values = {
        "client_id": str(uuid.uuid4()),
        "agency": "san-clemente",
        "establishment": fse["code"],
        "version": fse["version"],
        "seen": fse["seen"],
        "code": "F-1",
        "date": "2025-06-30",
        "answers": [{"item": "bmp.spill_kit", "compliant": False, "note": "empty"}],
        "measurements": [{"device": "GI-1", "fog_inches": "6", "solids_inches": "7"}],
    }
    return {**values, **fields}


def send(client, data: dict, **files):
    return client.post(SYNC, {"inspection": json.dumps(data), **files})


def test_the_route_has_the_establishments_due_riskiest_first_with_what_the_form_needs(client, ines):
    route = client.get(ROUTE).json()
    assert (route["as_of"], route["user"], route["due"]) == ("2025-06-30", "ines", 2)
    assert [f["code"] for f in route["establishments"]] == ["FSE-Z", "FSE-Q"]
    first = route["establishments"][0]
    assert first["devices"] == [
        {
            "code": "GI-1",
            "kind": "interceptor",
            "kind_title": "Grease interceptor",
            "location": "",
            "design_depth_inches": "48.00",
            "limit": "0.25",
            "limit_citation": "13.30.040(C)(6)",
        }
    ]
    # what the last inspection found, as a statement (the key is the app's)
    assert first["last_inspection"]["failed"][0]["question"] == (
        "No stocked spill kit was kept on site for employees' use"
    )
    assert first["version"] == version_of(first["seen"])
    assert {
        "item": "bmp.spill_kit",
        "question": "Is a spill kit kept on site and stocked?",
        "citation": "13.30.050(H)(4)(i)",
    } in route["checklist"]


def test_the_route_costs_the_same_queries_however_many_establishments(client, ines, sc):
    with CaptureQueriesContext(connection) as two:
        client.get(ROUTE)
    for i in range(4):
        fse = make_establishment(sc, code=f"FSE-{i}", name=f"Cafe {i}", opened_on="2020-01-01")
        make_device(fse, "GI-1", installed_on="2020-01-01")
        make_inspection(fse, f"I-{i}0", "2024-06-01", answers=[("bmp.signage", False)])
    sweep_agency(sc, as_of=AS_OF)
    with CaptureQueriesContext(connection) as six:
        assert len(client.get(ROUTE).json()["establishments"]) == 6
    assert len(six) == len(two)


def test_a_sent_inspection_is_stored_and_the_same_sent_again_is_not_stored_twice(client, ines):
    data = inspection_of(harbor(client), signed_by="Ana Ruiz")
    first = send(client, data, photos=[png("trap.png")], signature=png("signature.png"))
    assert first.status_code == 201, first.content
    assert first.json()["status"] == "stored"
    stored = Inspection.objects.get(client_id=data["client_id"])
    assert first.json()["inspection"]["receipt"] == f"/inspections/{stored.pk}/receipt.pdf"
    again = send(client, data, photos=[png("trap.png")])
    assert (again.status_code, again.json()["status"]) == (200, "already stored")
    assert Inspection.objects.filter(code="F-1").count() == 1
    assert stored.photos.count() == 1 and stored.inspector == ines


def test_a_repeat_is_answered_with_the_inspection_stored_even_after_a_change(client, ines):
    data = inspection_of(harbor(client))
    send(client, data)
    FoodServiceEstablishment.objects.filter(code="FSE-Z").update(code="FSE-Z2")
    again = send(client, data)
    assert (again.status_code, again.json()["inspection"]["establishment"]) == (200, "FSE-Z2")
    assert Inspection.objects.filter(client_id=data["client_id"]).count() == 1


def test_a_conflict_is_answered_with_what_changed_and_stores_nothing(client, ines):
    data = inspection_of(harbor(client))
    FoodServiceEstablishment.objects.filter(code="FSE-Z").update(name="Harbor Grill & Bar")
    response = send(client, data)
    assert response.status_code == 409
    assert response.json()["changes"] == ["Name: was Harbor Grill, now Harbor Grill & Bar."]
    assert not Inspection.objects.filter(code="F-1").exists()
    now = {**data, "version": response.json()["version"], "seen": response.json()["seen"]}
    assert send(client, now).status_code == 201


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"code": "I-1"}, "Inspection number I-1 is already used: Harbor Grill on 2024-06-28."),
        ({"date": "2025-13-01"}, "Date: Give the date of the inspection."),
        ({"measurements": [{"device": "GI-9", "fog_inches": "1"}]},
         "Measurements: GI-9 is not a device of Harbor Grill (FSE-Z)."),
        ({"measurements": [{"device": "GI-1", "fog_inches": "deep"}]},
         "Measurements: FOG depth in GI-1: 'deep' is not a number."),
        ({"answers": [{"item": "bmp.spill_kit", "compliant": "maybe"}]},
         "Checklist: Each answer is compliant or not (true or false)."),
        ({"agency": "town"}, "another agency than City of San Clemente"),
        ({"establishment": "FSE-NONE"}, "City of San Clemente has no establishment 'FSE-NONE'."),
    ],
)  # fmt: skip
def test_a_refusal_says_why_in_words_and_stores_nothing(client, ines, fields, message):
    response = send(client, inspection_of(harbor(client), **fields))
    assert response.status_code == 400
    assert response.json()["status"] == "refused"
    assert any(message in m for m in response.json()["messages"]), response.json()
    assert not Inspection.objects.filter(client_id__isnull=False).exists()


def test_a_post_that_is_no_inspection_is_refused(client, ines):
    response = client.post(SYNC, {"inspection": "{not json"})
    assert response.json()["messages"] == ["Inspection: It is not an inspection (JSON)."]
    response = client.post(SYNC, {})
    assert response.json()["messages"] == ["Inspection: This field is required."]


def test_a_photo_that_is_no_image_is_refused(client, ines):
    fake = png("trap.png")
    fake.file = io.BytesIO(b"not an image")
    response = send(client, inspection_of(harbor(client)), photos=[fake])
    assert response.status_code == 400
    assert (
        "trap.png is not a photo: a JPEG, PNG or WebP image is accepted"
        in (response.json()["messages"][0])
    )


def test_the_sync_gives_the_page_a_fresh_token(client, ines):
    answer = client.get(SYNC).json()
    assert answer["user"] == "ines" and answer["agency"] == "san-clemente" and answer["csrf"]


def test_the_sync_gives_each_person_a_key_of_their_own_the_same_at_each_sign_in(client, ines, sc):
    key = base64.b64decode(client.get(SYNC).json()["key"])
    assert len(key) == 32  # AES-256, what locks the inspections left on a shared phone
    client.logout()
    client.force_login(ines)
    assert base64.b64decode(client.get(SYNC).json()["key"]) == key
    client.force_login(make_user("omar", sc))
    assert base64.b64decode(client.get(SYNC).json()["key"]) != key


def test_the_route_marks_a_stop_inspected_on_its_day_done(client, ines):
    make_inspection(FoodServiceEstablishment.objects.get(code="FSE-Z"), "I-9", "2025-06-30")
    route = client.get(ROUTE).json()
    done = {f["code"]: f["done_today"] for f in route["establishments"]}
    assert done == {"FSE-Z": "I-9", "FSE-Q": None}


def test_an_auditor_may_not_send_inspections(client, sc):
    client.force_login(make_user("audrey", sc, role="auditor"))
    assert client.post(SYNC, {}).status_code == 403


def test_the_manifest_installs_the_offline_page_within_the_field_scope(client):
    manifest = client.get("/inspections/field/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    body = manifest.json()
    assert (body["start_url"], body["scope"]) == (
        "/inspections/field/offline/",
        "/inspections/field/",
    )
    assert {i["sizes"] for i in body["icons"]} == {"192x192", "512x512"}


def test_the_service_worker_keeps_the_field_pages_and_files_that_exist(client):
    response = client.get("/inspections/field/sw.js")
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    script = response.content.decode()
    pages = json.loads(script.split("const PAGES = ", 1)[1].split(";\n", 1)[0])
    assert pages == ["/inspections/field/offline/", "/inspections/field/"]
    files = json.loads(script.split("const STATIC = ", 1)[1].split(";\n", 1)[0])
    assert "/static/web/field/offline.js" in files
    assert all(finders.find(f.removeprefix("/static/")) for f in files)


def test_the_offline_page_is_the_field_app_with_its_urls(client, ines):
    html = client.get("/inspections/field/offline/?as_of=2025-06-30").content.decode()
    assert 'data-route-url="/inspections/field/route.json?as_of=2025-06-30"' in html
    assert 'data-sync-url="/inspections/field/sync/"' in html
    assert 'rel="manifest" href="/inspections/field/manifest.webmanifest"' in html
    assert 'id="inspection-form"' in html


def test_an_auditor_gets_the_offline_page_without_the_form(client, sc):
    client.force_login(make_user("audrey", sc, role="auditor"))
    html = client.get("/inspections/field/offline/").content.decode()
    assert "it does not record inspections" in html and 'id="inspection-form"' not in html


def test_the_inspection_page_shows_the_signature_and_links_the_receipt(client, ines):
    data = inspection_of(harbor(client), signed_by="Ana Ruiz")
    send(client, data, signature=png("signature.png"))
    stored = Inspection.objects.get(client_id=data["client_id"])
    html = client.get(f"/inspections/{stored.pk}/").content.decode()
    assert 'alt="Signature of Ana Ruiz"' in html and "data:image/png;base64," in html
    assert f'href="/inspections/{stored.pk}/receipt.pdf"' in html
    assert "not emailed: the operator has no email address on record" in html
    page = client.get("/establishments/FSE-Z/").content.decode()
    assert f'<a href="/inspections/{stored.pk}/">Inspection F-1 and its receipt</a>' in page


def test_the_receipt_is_a_pdf_of_the_inspection(client, ines):
    data = inspection_of(harbor(client))
    send(client, data)
    stored = Inspection.objects.get(client_id=data["client_id"])
    response = client.get(f"/inspections/{stored.pk}/receipt.pdf")
    assert response["Content-Type"] == "application/pdf"
    assert 'filename="inspection-FSE-Z-F-1.pdf"' in response["Content-Disposition"]
    text = PdfReader(io.BytesIO(response.content)).pages[0].extract_text()
    assert "Receipt of inspection F-1" in text and "Harbor Grill (FSE-Z)" in text


def test_another_agencys_inspection_is_not_found(client, sc):
    stored = Inspection.objects.get(code="I-1")
    client.force_login(make_user("charlie", Agency.objects.get(code="town-10-02")))
    assert client.get(f"/inspections/{stored.pk}/").status_code == 404
    assert client.get(f"/inspections/{stored.pk}/receipt.pdf").status_code == 404

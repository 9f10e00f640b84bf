import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.inspections.models import Inspection, InspectionPhoto
from fogkeeper.registry.models import GreaseControlDevice
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

URL = "/establishments/FSE-0042/record/inspection/?as_of=2025-06-30"


@pytest.fixture
def agencies(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    return sc, town


def item_field(response, item: str) -> str:
    form = response.context["form"]
    return next(row["field"].name for row in form.items if row["item"].item == item)


def photo() -> SimpleUploadedFile:
    buf = io.BytesIO()
    Image.new("RGB", (2, 2)).save(buf, "PNG")
    return SimpleUploadedFile("trap.png", buf.getvalue(), content_type="image/png")


def test_it_renders_the_checklist_with_citations_and_measurements_with_labels(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get(URL).content.decode()
    assert "Is a spill kit kept on site and stocked?" in html
    assert "(13.30.050(H)(4)(i))" in html
    assert ">FOG depth in GI-1 (in):</label>" in html
    assert 'data-depth="48.00"' in html and 'data-limit="0.25"' in html
    assert 'capture="environment"' in html and 'accept="image/*"' in html
    assert "web/inspection.js" in html


def test_it_records_a_failed_item_and_the_page_shows_the_violation_with_its_citation(
    client, agencies
):
    alice = make_user("alice", agencies[0])
    client.force_login(alice)
    spill_kit = item_field(client.get(URL), "bmp.spill_kit")
    gi = GreaseControlDevice.objects.get(code="GI-1")
    data = {
        "code": "I-77",
        "date": "2025-06-25",
        spill_kit: "no",
        f"fog_{gi.pk}": "2",
        f"solids_{gi.pk}": "3",
        "photos": [photo()],
    }
    client.post(URL, data)
    inspection = Inspection.objects.get(code="I-77")
    assert inspection.answers.get().item == "bmp.spill_kit"
    assert inspection.measurements.get().fog_inches == 2
    assert InspectionPhoto.objects.filter(inspection=inspection).count() == 1
    assert AuditEvent.objects.filter(action="inspection.record", actor=alice).exists()
    page = client.get("/establishments/FSE-0042/?as_of=2025-06-30").content.decode()
    findings = page.split('id="findings"', 1)[1].split("</table>", 1)[0]
    assert "<td>2025-06-25</td><td>13.30.050(H)(4)(i)</td>" in findings


def test_it_shows_the_services_message_and_records_nothing_for_a_code_already_used(
    client, agencies
):
    client.force_login(make_user("alice", agencies[0]))
    spill_kit = item_field(client.get(URL), "bmp.spill_kit")
    data = {"code": "I-55", "date": "2025-06-25", spill_kit: "no"}
    response = client.post(URL, data)
    assert response.status_code == 400
    assert "Inspection number I-55 is already used" in response.content.decode()
    assert Inspection.objects.count() == 1
    assert not AuditEvent.objects.filter(action="inspection.record").exists()


def test_it_answers_404_for_another_agencys_establishment(client, agencies):
    sc, town = agencies
    make_establishment(town, code="T-1", name="Town Diner")
    client.force_login(make_user("alice", sc))
    assert client.get("/establishments/T-1/record/inspection/").status_code == 404


def test_it_forbids_an_auditor_and_a_clerk(client, agencies):
    client.force_login(make_user("audrey", agencies[0], role="auditor"))
    assert client.post(URL, {"code": "I-77", "date": "2025-06-25"}).status_code == 403
    client.force_login(make_user("carol", agencies[0], role="clerk"))
    assert client.post(URL, {"code": "I-77", "date": "2025-06-25"}).status_code == 403
    assert not Inspection.objects.filter(code="I-77").exists()


def counts():
    return Inspection.objects.count(), AuditEvent.objects.count()


def test_it_refuses_a_blank_inspection_naming_the_form_and_keeps_what_was_typed(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    before = counts()
    response = client.post(URL, {"code": "I-78", "date": "2025-06-25", "notes": "came by"})
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "An inspection records at least one checklist answer or measurement."
    ]
    assert 'value="I-78"' in response.content.decode()
    assert counts() == before


def test_it_refuses_a_number_another_establishment_of_the_agency_used(client, agencies):
    sc = agencies[0]
    other = make_establishment(sc, code="FSE-0043", name="Harbor Grill")
    Inspection.objects.create(establishment=other, code="I-90", date="2025-05-01")
    client.force_login(make_user("alice", sc))
    spill_kit = item_field(client.get(URL), "bmp.spill_kit")
    before = counts()
    response = client.post(URL, {"code": "I-90", "date": "2025-06-25", spill_kit: "yes"})
    assert response.status_code == 400
    (message,) = response.context["form"].errors["code"]
    assert message == "Inspection number I-90 is already used: Harbor Grill on 2025-05-01."
    assert counts() == before


def test_it_refuses_a_fog_depth_without_the_solids_on_that_devices_field(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    gi = GreaseControlDevice.objects.get(code="GI-1")
    before = counts()
    response = client.post(URL, {"code": "I-79", "date": "2025-06-25", f"fog_{gi.pk}": "2"})
    assert response.status_code == 400
    (message,) = response.context["form"].errors[f"fog_{gi.pk}"]
    assert message.startswith("GI-1: the solids depth is missing; give both depths")
    assert "13.30.040(C)(6)" in message
    assert f'name="fog_{gi.pk}" value="2"' in response.content.decode()
    assert counts() == before


def test_it_refuses_an_inspection_dated_in_the_future(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    spill_kit = item_field(client.get(URL), "bmp.spill_kit")
    before = counts()
    response = client.post(URL, {"code": "I-80", "date": "2099-06-25", spill_kit: "yes"})
    assert response.status_code == 400
    assert response.context["form"].errors["date"] == ["2099-06-25 is in the future."]
    assert counts() == before


def test_it_refuses_more_photos_together_than_an_inspection_keeps(client, agencies, settings):
    """The staff form caps an inspection's photos together as the field sync does."""
    size = photo().size
    settings.FOGKEEPER_INSPECTION_MAX_PHOTO_BYTES = 2 * size
    client.force_login(make_user("alice", agencies[0]))
    spill_kit = item_field(client.get(URL), "bmp.spill_kit")
    data = {
        "code": "I-79",
        "date": "2025-06-25",
        spill_kit: "no",
        "photos": [photo(), photo(), photo()],
    }
    response = client.post(URL, data)
    assert response.status_code == 400
    assert response.context["form"].errors["photos"] == [
        f"The photos are {3 * size}\xa0bytes together; an inspection's photos may be at most "
        f"{2 * size}\xa0bytes. Take them at a lower resolution, or keep fewer, and send it again."
    ]
    assert not Inspection.objects.filter(code="I-79").exists()


def test_the_form_comes_with_the_days_number_todays_date_and_the_checklist_in_the_packs_order(
    client, agencies
):
    """The number is made by the field app's rule (the establishment and the day), the next
    free one when the agency used it; the date is the agency's today."""
    sc = agencies[0]
    client.force_login(make_user("alice", sc))
    today = sc.today()
    form = client.get(URL).context["form"]
    assert form["code"].value() == f"FSE-0042-{today:%Y%m%d}"
    assert form["date"].value() == today
    assert [row["item"].item for row in form.items] == list(sc.get_pack().checklist)
    fse = Inspection.objects.get(code="I-55").establishment
    Inspection.objects.create(establishment=fse, code=f"FSE-0042-{today:%Y%m%d}", date=today)
    assert client.get(URL).context["form"]["code"].value() == f"FSE-0042-{today:%Y%m%d}-2"


def test_it_stores_the_signature_drawn_as_the_field_app_stores_it_and_lands_on_the_inspection(
    client, agencies
):
    client.force_login(make_user("alice", agencies[0]))
    spill_kit = item_field(client.get(URL), "bmp.spill_kit")
    signature = SimpleUploadedFile("signature.png", png_bytes((600, 200)), "image/png")
    data = {
        "code": "I-78",
        "date": "2025-06-25",
        spill_kit: "yes",
        "signed_by": "Ana Ruiz",
        "signature": signature,
    }
    response = client.post(URL, data)
    inspection = Inspection.objects.get(code="I-78")
    assert response.status_code == 302
    assert response["Location"] == f"/inspections/{inspection.pk}/"
    assert inspection.signed_by == "Ana Ruiz"
    assert inspection.signature.name.startswith("inspections/signatures/")
    page = client.get(response["Location"])
    html = page.content.decode()
    assert "Inspection I-78 of Pier Taqueria recorded" in html
    assert f'href="/inspections/{inspection.pk}/receipt.pdf"' in html
    assert 'href="/establishments/FSE-0042/"' in html
    assert 'alt="Signature of Ana Ruiz"' in html


def test_it_refuses_a_name_signing_without_a_signature_and_stores_nothing(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    spill_kit = item_field(client.get(URL), "bmp.spill_kit")
    data = {"code": "I-79", "date": "2025-06-25", spill_kit: "yes", "signed_by": "Ana Ruiz"}
    response = client.post(URL, data)
    assert response.status_code == 400
    assert "Ana Ruiz is named as signing, but no signature came." in response.content.decode()
    assert not Inspection.objects.filter(code="I-79").exists()


def png_bytes(size) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, "white").save(buf, "PNG")
    return buf.getvalue()


def test_it_refuses_a_negative_depth_in_words_and_stores_nothing(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    gi = GreaseControlDevice.objects.get(code="GI-1")
    data = {"code": "I-80", "date": "2025-06-25", f"fog_{gi.pk}": "-2", f"solids_{gi.pk}": "3"}
    response = client.post(URL, data)
    assert response.status_code == 400
    assert "FOG depth in GI-1 cannot be negative: give 0 or more." in response.content.decode()
    assert not Inspection.objects.filter(code="I-80").exists()

"""inspection_sync: an inspection kept offline and sent later is stored once by the id its
browser made, is refused for what the inspection form refuses, and is not stored over an
establishment that changed since the route was downloaded (fogkeeper/inspections/offline.py)."""

import uuid
from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.inspections.models import Inspection, InspectionPhoto
from fogkeeper.inspections.offline import Conflict, Upload, inspection_sync
from fogkeeper.inspections.services import Answer, Reading
from fogkeeper.inspections.snapshots import establishment_seen, version_of
from fogkeeper.registry.models import FoodServiceEstablishment, GreaseControlDevice
from tests.compliance.records import make_pier_taqueria
from tests.images import png
from tests.records import make_device
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

DAY = date(2025, 6, 30)


@pytest.fixture
def fse(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    sc, _ = two_agencies()
    return make_pier_taqueria(sc)


def upload(fse, **fields) -> Upload:
    """What the field app sends for `fse`, as the route showed it now."""
    seen = establishment_seen(FoodServiceEstablishment.objects.get(pk=fse.pk))
    values = {
        "client_id": uuid.uuid4(),
        "version": version_of(seen),
        "seen": seen,
        "code": "F-1",
        "date": DAY,
        "answers": [Answer("bmp.spill_kit", False)],
    }
    return Upload(**{**values, **fields})


def sync(fse, sent: Upload, **kw):
    return inspection_sync(establishment=fse, upload=sent, today=DAY, **kw)


def test_it_stores_an_inspection_sent_twice_once(fse):
    sent = upload(fse)
    first, again = sync(fse, sent), sync(fse, sent)
    assert (first.created, again.created) == (True, False)
    assert again.inspection.pk == first.inspection.pk
    assert Inspection.objects.filter(client_id=sent.client_id).count() == 1
    assert AuditEvent.objects.filter(action="inspection.record").count() == 1


def test_a_repeat_with_other_content_answers_the_inspection_stored_first(fse):
    sent = upload(fse)
    sync(fse, sent)
    again = sync(fse, upload(fse, client_id=sent.client_id, code="F-2"))
    assert (again.created, again.inspection.code) == (False, "F-1")
    assert not Inspection.objects.filter(code="F-2").exists()


def test_it_refuses_an_id_used_for_another_establishment(fse):
    sent = upload(fse)
    sync(fse, sent)
    other = make_pier_taqueria(fse.agency, code="FSE-0043")
    with pytest.raises(ValidationError) as refused:
        sync(other, upload(other, client_id=sent.client_id))
    (text,) = refused.value.message_dict["client_id"]
    assert text.startswith("This inspection was already sent for another establishment (")
    assert str(sent.client_id) not in text  # never the app's own id of it
    assert " as inspection F-1" in text and "Start a new inspection" in text


def test_it_stores_nothing_and_says_what_changed_when_the_establishment_changed(fse):
    sent = upload(fse)
    FoodServiceEstablishment.objects.filter(pk=fse.pk).update(address="12 Harbor Way")
    make_device(fse, "GT-9", "grease_trap", installed_on="2025-06-01")
    with pytest.raises(Conflict) as conflict:
        sync(fse, sent)
    assert conflict.value.changes == [
        "Address: was 101 Avenida Del Mar, now 12 Harbor Way.",
        "Device GT-9 was added (grease trap).",
    ]
    assert not Inspection.objects.filter(client_id=sent.client_id).exists()


def test_it_stores_it_when_sent_again_against_the_record_as_it_is_now(fse):
    sent = upload(fse)
    FoodServiceEstablishment.objects.filter(pk=fse.pk).update(name="Pier Taqueria Nueva")
    with pytest.raises(Conflict) as conflict:
        sync(fse, sent)
    now = Upload(
        **{**sent.__dict__, "version": conflict.value.version, "seen": conflict.value.seen}
    )
    assert sync(fse, now).created


def test_a_device_removed_since_the_route_is_a_change(fse):
    sent = upload(fse)
    GreaseControlDevice.objects.filter(code="GT-2").update(removed_on=date(2025, 6, 15))
    with pytest.raises(Conflict) as conflict:
        sync(fse, sent)
    assert conflict.value.changes == ["Device GT-2, removed on: was (none), now 2025-06-15."]


def test_a_sweep_of_the_findings_is_no_change(fse):
    from fogkeeper.compliance.runs import sweep_agency

    sent = upload(fse)
    sweep_agency(fse.agency, as_of=DAY)
    assert sync(fse, sent).created


def test_it_refuses_a_route_copy_that_does_not_match_its_version(fse):
    sent = upload(fse)
    damaged = Upload(**{**sent.__dict__, "seen": {**sent.seen, "name": "Somewhere else"}})
    with pytest.raises(ValidationError, match="download the route again"):
        sync(fse, damaged)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"code": "I-55"}, "Inspection number I-55 is already used: Pier Taqueria on 2025-02-11."),
        ({"date": date(2025, 7, 1)}, "2025-07-01 is in the future."),
        ({"answers": [Answer("bmp.no_such_item", True)]}, "'bmp.no_such_item' is not on"),
        ({"answers": []}, "records at least one checklist answer or measurement"),
        ({"signed_by": "Ana Ruiz"}, "Ana Ruiz is named as signing, but no signature came."),
        ({"signature": png("signature.png")}, "Give the name of who signed"),
    ],
)
def test_it_refuses_what_the_inspection_form_refuses_and_stores_nothing(fse, fields, message):
    with pytest.raises(ValidationError) as refused:
        sync(fse, upload(fse, **fields))
    assert any(message in m for m in refused.value.messages), refused.value.messages
    assert not Inspection.objects.filter(client_id__isnull=False).exists()


def test_it_refuses_a_negative_depth(fse):
    gi = GreaseControlDevice.objects.get(code="GI-1")
    reading = Reading(device=gi, fog_inches=Decimal("-1"), solids_inches=Decimal("2"))
    with pytest.raises(ValidationError, match="Cannot be negative"):
        sync(fse, upload(fse, measurements=[reading]))


def test_it_stores_the_photos_and_the_signature_with_the_inspection(fse):
    ines = make_user("ines", fse.agency)
    sent = upload(
        fse, photos=[png(), png("lid.png")], signature=png("signature.png"), signed_by="Ana Ruiz"
    )
    inspection = sync(fse, sent, inspector=ines, actor=ines).inspection
    assert inspection.photos.count() == 2
    assert inspection.signature.name.startswith("inspections/signatures/")
    assert (inspection.signed_by, inspection.inspector) == ("Ana Ruiz", ines)


def test_a_photo_refused_stores_nothing_of_the_inspection(fse, settings):
    settings.FOGKEEPER_PHOTO_MAX_BYTES = 50
    with pytest.raises(ValidationError, match="a photo may be at most"):
        sync(fse, upload(fse, photos=[png(size=(40, 40))]))
    assert not Inspection.objects.filter(code="F-1").exists()
    assert not InspectionPhoto.objects.exists()


def test_a_postscript_file_named_as_a_photo_is_refused_in_words_and_nothing_stored(fse):
    from tests.images import eps

    with pytest.raises(ValidationError, match="photo.jpg is not a photo: a JPEG, PNG or WebP"):
        sync(fse, upload(fse, photos=[eps("photo.jpg")]))
    assert not Inspection.objects.filter(code="F-1").exists()
    assert not InspectionPhoto.objects.exists()


def test_a_webp_photo_is_kept(fse):
    from tests.images import webp

    inspection = sync(fse, upload(fse, photos=[webp()])).inspection
    assert inspection.photos.count() == 1

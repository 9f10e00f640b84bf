import io
from io import StringIO
from unittest.mock import patch

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from PIL import Image

from fogkeeper.inspections.models import Inspection, InspectionPhoto
from fogkeeper.inspections.photos import thumbnail_make
from fogkeeper.inspections.services import inspection_photo_add
from tests.compliance.records import make_pier_taqueria
from tests.images import declared_png
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


def png(width: int, height: int) -> SimpleUploadedFile:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), "#885522").save(buf, "PNG")
    return SimpleUploadedFile("trap.png", buf.getvalue(), content_type="image/png")


@pytest.fixture
def inspections(settings, tmp_path):
    """San Clemente's inspection I-55 and the Town's."""
    settings.MEDIA_ROOT = tmp_path
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    make_pier_taqueria(town, code="T-0042")
    ours = Inspection.objects.get(establishment__agency=sc, code="I-55")
    theirs = Inspection.objects.get(establishment__agency=town, code="I-55")
    return ours, theirs


@pytest.fixture
def photos(inspections, django_capture_on_commit_callbacks):
    """A photo of each, with its thumbnail made once stored (the task run when it commits)."""
    ours, theirs = inspections
    with django_capture_on_commit_callbacks(execute=True):
        added = (
            inspection_photo_add(inspection=ours, image=png(1200, 900), caption="Trap lid"),
            inspection_photo_add(inspection=theirs, image=png(10, 10)),
        )
    return tuple(InspectionPhoto.objects.get(pk=p.pk) for p in added)


@pytest.fixture
def alice(client, photos):
    client.force_login(make_user("alice", photos[0].inspection.establishment.agency))
    return client


def test_it_serves_the_photo_as_taken(alice, photos):
    response = alice.get(f"/photos/{photos[0].pk}/")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    with photos[0].image.open("rb") as stored:
        assert b"".join(response.streaming_content) == stored.read()
    assert response["Cache-Control"] == "private, max-age=86400"


def test_it_serves_a_small_jpeg_thumbnail(alice, photos):
    response = alice.get(f"/photos/{photos[0].pk}/thumbnail.jpg")
    assert response["Content-Type"] == "image/jpeg"
    assert Image.open(io.BytesIO(b"".join(response.streaming_content))).size == (320, 240)


def test_it_shows_the_thumbnails_in_the_establishments_inspections(alice, photos):
    html = alice.get("/establishments/FSE-0042/").content.decode()
    inspections = html.split('id="inspections"', 1)[1].split("</section>", 1)[0]
    assert "2025-02-11: inspection I-55" in inspections
    assert f'<a href="/photos/{photos[0].pk}/"><img src="/photos/{photos[0].pk}/thumbnail.jpg"' in (
        inspections
    )
    assert 'alt="Trap lid (1 of 1, inspection I-55)"' in inspections


@pytest.mark.parametrize("suffix", ["", "thumbnail.jpg"])
def test_it_answers_404_for_another_agencys_photo(alice, photos, suffix):
    assert alice.get(f"/photos/{photos[1].pk}/{suffix}").status_code == 404


def test_it_never_serves_the_media_folder_itself(alice, photos):
    assert alice.get(f"/media/{photos[0].image.name}").status_code == 404


def test_it_sends_anonymous_visitors_to_sign_in(client, photos):
    response = client.get(f"/photos/{photos[0].pk}/")
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/photos/{photos[0].pk}/"


# -- photos capped, thumbnails made once (issue 15, item 7) --------------------------------


def refusal(inspection, image) -> list[str]:
    with pytest.raises(ValidationError) as caught:
        inspection_photo_add(inspection=inspection, image=image)
    assert not InspectionPhoto.objects.exists()
    return caught.value.message_dict["image"]


@pytest.mark.parametrize(
    "width, height, megapixels",
    [(100_000, 100_000, "10,000"), (16_000, 9_000, "144"), (10_000, 5_000, "50")],
)
def test_it_refuses_a_photo_whose_header_declares_too_many_pixels(
    inspections, width, height, megapixels
):
    assert refusal(inspections[0], declared_png(width, height)) == [
        f"bomb.png is {megapixels} megapixels; a photo may have at most 40 megapixels. Take it "
        "at a lower resolution, or reduce it, and add it again."
    ]


def test_it_refuses_a_photo_of_more_bytes_than_the_cap(inspections, settings):
    settings.FOGKEEPER_PHOTO_MAX_BYTES = 1000
    big = png(200, 200)
    big.size = 1001
    assert refusal(inspections[0], big)[0].startswith(
        "trap.png is 1001\xa0bytes; a photo may be at most 1000\xa0bytes."
    )


def test_the_inspection_form_refuses_the_photo_and_records_nothing(client, inspections):
    client.force_login(make_user("alice", inspections[0].establishment.agency))
    data = {"code": "I-77", "date": "2025-06-25", "photos": [declared_png(100_000, 100_000)]}
    response = client.post("/establishments/FSE-0042/record/inspection/?as_of=2025-06-30", data)
    assert response.status_code == 400
    assert "bomb.png is 10,000 megapixels; a photo may have at most 40 megapixels." in (
        response.content.decode()
    )
    assert not Inspection.objects.filter(code="I-77").exists()


def test_it_makes_the_thumbnail_once_on_upload_next_to_the_photo(photos):
    photo = InspectionPhoto.objects.get(pk=photos[0].pk)
    assert photo.thumbnail.name == photo.image.name.removesuffix(".png") + ".thumb.jpg"
    with photo.thumbnail.open("rb") as stored:
        assert Image.open(stored).size == (320, 240)
    assert thumbnail_make(photo.pk) is False  # made already: not made again
    assert InspectionPhoto.objects.get(pk=photo.pk).thumbnail.name == photo.thumbnail.name


def test_serving_the_thumbnail_opens_no_image(alice, photos):
    with patch("PIL.Image.open", side_effect=AssertionError("decoded in a request")) as opened:
        response = alice.get(f"/photos/{photos[0].pk}/thumbnail.jpg")
        html = alice.get("/establishments/FSE-0042/").content.decode()
    assert response.status_code == 200 and "thumbnail.jpg" in html
    with photos[0].thumbnail.open("rb") as stored:
        assert b"".join(response.streaming_content) == stored.read()
    opened.assert_not_called()


def test_a_thumbnail_not_made_yet_shows_as_being_prepared(client, inspections):
    photo = inspection_photo_add(inspection=inspections[0], image=png(40, 30), caption="Lid")
    client.force_login(make_user("alice", inspections[0].establishment.agency))
    html = client.get("/establishments/FSE-0042/").content.decode()
    assert "Lid (1 of 1, inspection I-55): thumbnail being prepared" in html
    assert client.get(f"/photos/{photo.pk}/thumbnail.jpg").status_code == 404


def test_the_command_makes_the_thumbnails_of_photos_stored_without_one(inspections):
    photo = inspection_photo_add(inspection=inspections[0], image=png(40, 30))  # not committed
    out = StringIO()
    call_command("make_thumbnails", stdout=out)
    assert out.getvalue() == "1 thumbnail made\n"
    assert InspectionPhoto.objects.get(pk=photo.pk).thumbnail


def test_a_postscript_file_stored_as_a_photo_is_never_handed_to_ghostscript(inspections):
    from django.core.files.base import ContentFile

    from tests.images import eps

    photo = InspectionPhoto(inspection=inspections[0])
    photo.image.save("old.jpg", ContentFile(eps().read()), save=True)
    with patch("PIL.EpsImagePlugin.EpsImageFile._open", side_effect=AssertionError("EPS")) as eps_:
        assert thumbnail_make(photo.pk) is False
    assert not eps_.called

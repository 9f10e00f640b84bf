import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from fogkeeper.inspections.models import Inspection
from fogkeeper.inspections.services import inspection_photo_add
from tests.compliance.records import make_pier_taqueria
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


def png(width: int, height: int) -> SimpleUploadedFile:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), "#885522").save(buf, "PNG")
    return SimpleUploadedFile("trap.png", buf.getvalue(), content_type="image/png")


@pytest.fixture
def photos(settings, tmp_path):
    """A photo of San Clemente's inspection I-55 and one of the Town's."""
    settings.MEDIA_ROOT = tmp_path
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    make_pier_taqueria(town, code="T-0042")
    ours = Inspection.objects.get(establishment__agency=sc, code="I-55")
    theirs = Inspection.objects.get(establishment__agency=town, code="I-55")
    return (
        inspection_photo_add(inspection=ours, image=png(1200, 900), caption="Trap lid"),
        inspection_photo_add(inspection=theirs, image=png(10, 10)),
    )


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
    assert Image.open(io.BytesIO(response.content)).size == (320, 240)


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

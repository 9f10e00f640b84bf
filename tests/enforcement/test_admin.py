"""Staff read enforcement records in the admin and download each letter as it was sent."""

import pytest

from fogkeeper.enforcement.models import Letter
from fogkeeper.enforcement.services import action_take

from .steps import d, open_case

pytestmark = pytest.mark.django_db


def test_it_downloads_the_letter_byte_for_byte(admin_client, monkeypatch):
    from fogkeeper.enforcement import letters

    # the real module stays imported (the pages import it); only its rendering is stood in for
    monkeypatch.setattr(letters, "render_action_letter", lambda *a, **kw: b"%PDF-1.7 sent")
    _, case, _ = open_case()
    action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-1",
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
    )
    letter = Letter.objects.get()

    response = admin_client.get(f"/admin/enforcement/letter/{letter.pk}/pdf/")

    assert response.content == b"%PDF-1.7 sent"
    assert response["Content-Type"] == "application/pdf"


def test_the_action_list_shows_but_offers_no_add(admin_client):
    _, case, _ = open_case()
    action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-1",
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
    )

    response = admin_client.get("/admin/enforcement/enforcementaction/")

    assert b"NNC-1" in response.content
    assert admin_client.get("/admin/enforcement/enforcementaction/add/").status_code == 403

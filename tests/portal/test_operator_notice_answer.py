"""An operator answers a notice sent to its establishment."""

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.enforcement.models import NoticeAnswer

from .conftest import PIER, notice

pytestmark = pytest.mark.django_db

URL = f"{PIER}notices/NNC-1/answer/"


@pytest.fixture
def nnc(world, letters):
    return notice(world.pier)


def test_it_files_the_answer_with_an_audit_row(as_olive, olive, nnc):
    response = as_olive.post(URL, {"text": "GI-1 was pumped out on 2025-06-28."}, follow=True)
    answer = NoticeAnswer.objects.get()
    assert answer.action == nnc and answer.answered_by == olive
    assert answer.answered_on.isoformat() == "2025-06-30"
    assert AuditEvent.objects.get(action="enforcement.notice_answer").actor == olive
    html = response.content.decode()
    assert "Your answer to NNC-1 was filed." in html
    assert "2025-06-30: GI-1 was pumped out on 2025-06-28." in html


def test_it_shows_the_notice_and_the_earlier_answers(as_olive, nnc):
    as_olive.post(URL, {"text": "Pump-out booked."})
    html = as_olive.get(URL).content.decode()
    assert "Answer Notice of Non-Compliance NNC-1" in html and "Pump-out booked." in html


def test_it_refuses_an_empty_answer(as_olive, nnc):
    response = as_olive.post(URL, {"text": "  "})
    assert response.status_code == 400
    assert "Write the answer." in response.content.decode()
    assert not NoticeAnswer.objects.exists()


def test_it_answers_404_for_a_notice_of_another_establishment(as_olive, world, letters):
    notice(world.grill, code="NNC-9")
    assert as_olive.get(f"{PIER}notices/NNC-9/answer/").status_code == 404
    assert (
        as_olive.post("/portal/operator/FSE-2/notices/NNC-9/answer/", {"text": "x"}).status_code
        == 404
    )
    assert not NoticeAnswer.objects.exists()

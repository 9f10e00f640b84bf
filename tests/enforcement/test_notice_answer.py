"""The operator's answers to the notices sent to it: appended, audited, shown to staff."""

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.enforcement.models import NoticeAnswer
from fogkeeper.enforcement.services import action_take, notice_answer
from tests.audit.people import alice, events
from tests.web.people import make_user

from .steps import d, open_case

pytestmark = pytest.mark.django_db


@pytest.fixture
def notice(monkeypatch):
    from fogkeeper.enforcement import letters

    # the real module stays imported (the pages import it); only its rendering is stood in for
    monkeypatch.setattr(letters, "render_action_letter", lambda *a, **kw: b"%PDF-1.7 sent")
    _, case, _ = open_case()
    return action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-1",
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
    )


def test_it_appends_the_answer_with_an_audit_row(notice):
    answer = notice_answer(
        action=notice,
        text=" Pumped out on 3/20, manifest attached. ",
        answered_on=d("2025-03-21"),
        actor=alice(),
    )
    assert answer.text == "Pumped out on 3/20, manifest attached."
    assert answer.answered_by == alice()
    (event,) = events("enforcement.notice_answer")
    assert event.object_id == str(answer.pk) and event.agency == notice.establishment.agency


def test_it_keeps_an_answer_as_filed(notice):
    answer = notice_answer(action=notice, text="First", answered_on=d("2025-03-21"))
    answer.text = "Edited"
    with pytest.raises(ValueError, match="never changed"):
        answer.save()


def test_it_refuses_an_empty_answer(notice):
    with pytest.raises(ValidationError) as e:
        notice_answer(action=notice, text="   ", answered_on=d("2025-03-21"))
    assert e.value.message_dict == {"text": ["Write the answer."]}
    assert not NoticeAnswer.objects.exists()


def test_it_refuses_an_answer_dated_before_the_notice(notice):
    with pytest.raises(ValidationError) as e:
        notice_answer(action=notice, text="Done", answered_on=d("2025-02-28"))
    assert "answered_on" in e.value.message_dict


def test_the_staff_establishment_page_shows_the_answer(client, notice):
    notice_answer(action=notice, text="Pumped out on 3/20.", answered_on=d("2025-03-21"))
    client.force_login(make_user("ines", notice.establishment.agency))
    html = client.get(f"/establishments/{notice.establishment.code}/").content.decode()
    assert "2025-03-21: Pumped out on 3/20." in html

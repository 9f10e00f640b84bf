"""The letter of an action is stored as sent, byte for byte."""

import hashlib
import sys
import types

import pytest

from fogkeeper.enforcement.models import Letter
from fogkeeper.enforcement.services import action_take

from .steps import d, open_case

pytestmark = pytest.mark.django_db


def notice(case, code="NNC-1"):
    return action_take(
        case=case,
        type="notice_of_noncompliance",
        code=code,
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
        delivery="mail",
        certified_mail_number="7019-1",
    )


def test_it_stores_the_letter_exactly_as_rendered(monkeypatch):
    calls = []

    def render_action_letter(action, deadlines, signer=None):
        calls.append({"action": action, "deadlines": deadlines, "signer": signer})
        return b"%PDF-1.7 fake \x00\xff"

    fake = types.ModuleType("fogkeeper.enforcement.letters")
    fake.render_action_letter = render_action_letter
    monkeypatch.setitem(sys.modules, "fogkeeper.enforcement.letters", fake)
    _, case, _ = open_case()

    letter = Letter.objects.get(action=notice(case))

    assert bytes(letter.pdf) == b"%PDF-1.7 fake \x00\xff"
    assert letter.sha256 == hashlib.sha256(b"%PDF-1.7 fake \x00\xff").hexdigest()
    assert calls[0]["action"].type == "notice_of_noncompliance"
    assert calls[0]["action"].taken_on == d("2025-03-03")
    assert [(x.name, x.date) for x in calls[0]["deadlines"]] == [("appeal", d("2025-03-13"))]


def test_a_notice_is_sent_with_a_pdf_letter():
    _, case, _ = open_case()

    letter = Letter.objects.get(action=notice(case))

    assert bytes(letter.pdf).startswith(b"%PDF")

"""The operator's written answers to an action."""

from __future__ import annotations

from datetime import date

from django.db import transaction

from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.services import Actor, Errors, add_error, check_model, refuse

from ..models import EnforcementAction, NoticeAnswer
from .shared import _audit

ANSWER_MAX = 10_000


def notice_answer(
    *, action: EnforcementAction, text: str, answered_on: date, actor: Actor = None
) -> NoticeAnswer:
    """The operator's written answer to `action`, appended to what was filed before."""
    errors: Errors = {}
    text = text.strip()
    if not text:
        add_error(errors, "text", "Write the answer.")
    elif len(text) > ANSWER_MAX:
        add_error(errors, "text", f"At most {ANSWER_MAX:,} characters (got {len(text):,}).")
    if answered_on < action.taken_on:
        add_error(
            errors,
            "answered_on",
            f"{answered_on} is before {action.code} was taken ({action.taken_on}).",
        )
    refuse(errors)
    answer = NoticeAnswer(action=action, text=text, answered_on=answered_on)
    if getattr(actor, "is_authenticated", False):
        answer.answered_by = actor
    check_model(answer, errors)
    refuse(errors)
    with transaction.atomic():
        answer.save()
        _audit("notice_answer", answer, action.establishment, actor)
    reevaluate_on_commit(action.establishment)
    return answer

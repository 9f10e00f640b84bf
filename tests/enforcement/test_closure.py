"""The manager closes a case with a reason (settled, withdrawn, opened in error), an act on
the case: nothing more is offered on it and its dates leave the legal calendar (issue 36)."""

import pytest

from fogkeeper.enforcement.models import CLOSURE, EnforcementAction
from fogkeeper.enforcement.services import action_take, case_close
from fogkeeper.enforcement.steps import next_steps

from .steps import d, open_case, refused

pytestmark = pytest.mark.django_db


def noticed(case):
    return action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-1",
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
    )


def test_it_closes_a_case_with_its_reason_as_an_act_on_the_case():
    _, case, _ = open_case()
    noticed(case)

    closure = case_close(case=case, code="CL-1", closed_on=d("2025-04-02"), reason="withdrawn")

    assert (closure.type, closure.taken_on, closure.fields["reason"]) == (
        CLOSURE,
        d("2025-04-02"),
        "withdrawn",
    )


def test_a_closed_case_offers_no_further_step():
    _, case, _ = open_case()
    noticed(case)
    case_close(case=case, code="CL-1", closed_on=d("2025-04-02"), reason="opened_in_error")
    actions = list(case.actions.all())
    pack = case.establishment.agency.get_pack()

    assert next_steps(pack, actions, [], d("2025-04-03")) == []
    assert next_steps(pack, actions, [], d("2025-04-01")) != []  # not yet closed that day


@pytest.mark.parametrize(
    ("closed_on", "reason", "note", "words"),
    [
        ("2025-04-02", "", "", "Give the reason"),
        ("2025-04-02", "settled", "", "Say what the settlement provides"),
        ("2025-03-02", "withdrawn", "", "closes on or after that day"),
        ("2099-01-01", "withdrawn", "", "is after today"),
    ],
)
def test_it_refuses_a_closing_without_its_reason_or_out_of_its_dates(
    closed_on, reason, note, words
):
    _, case, _ = open_case()
    noticed(case)

    message = refused(
        case_close, case=case, code="CL-1", closed_on=d(closed_on), reason=reason, note=note
    )

    assert words in message


def test_a_case_is_closed_once():
    _, case, _ = open_case()
    case_close(case=case, code="CL-1", closed_on=d("2025-04-02"), reason="withdrawn")

    message = refused(
        case_close, case=case, code="CL-2", closed_on=d("2025-04-03"), reason="withdrawn"
    )

    assert "was closed on 2025-04-02" in message
    assert EnforcementAction.objects.filter(type=CLOSURE).count() == 1

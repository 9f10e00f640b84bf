"""Enforcement records are never edited or deleted; later facts are new rows."""

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.enforcement.models import ActionFact, EnforcementAction
from fogkeeper.enforcement.services import action_fact_record, action_take

from .steps import d, open_case

pytestmark = pytest.mark.django_db


def notice(case):
    return action_take(
        case=case,
        type="notice_of_noncompliance",
        code="NNC-1",
        fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
        delivery="mail",
        certified_mail_number="7019-1",
    )


def test_an_action_cannot_be_changed():
    _, case, _ = open_case()
    action = notice(case)
    action.cites = "something else"

    with pytest.raises(ValueError, match="never changed"):
        action.save()


def test_an_action_cannot_be_deleted():
    _, case, _ = open_case()

    with pytest.raises(ValueError, match="never deleted"):
        notice(case).delete()


def test_a_fact_cannot_be_changed_or_deleted():
    _, case, _ = open_case()
    fact = action_fact_record(action=notice(case), field="corrected_on", value=d("2025-04-15"))

    with pytest.raises(ValueError):
        fact.save()
    with pytest.raises(ValueError):
        fact.delete()


def test_a_later_fact_overlays_the_action_and_the_latest_wins():
    _, case, _ = open_case()
    action = notice(case)
    action_fact_record(action=action, field="corrected_on", value=d("2025-04-15"))
    action_fact_record(action=action, field="corrected_on", value=d("2025-04-12"))

    assert action.effective_fields()["corrected_on"] == "2025-04-12"
    assert action.fields == {"delivered_on": "2025-03-03", "correct_by": "2025-03-31"}


def test_a_milestone_met_is_a_fact_on_its_schedule():
    _, case, _ = open_case()
    schedule = action_take(
        case=case,
        type="compliance_schedule",
        code="CS-1",
        fields={
            "entered_on": d("2025-04-15"),
            "payment_arrangement": False,
            "milestones": [{"id": "M-1", "due": d("2025-05-15")}],
        },
    )
    action_fact_record(action=schedule, field="milestones.M-1.met_on", value=d("2025-05-10"))

    assert schedule.effective_fields()["milestones"] == [
        {"id": "M-1", "due": "2025-05-15", "met_on": "2025-05-10"}
    ]


def test_a_fact_the_action_does_not_have_is_refused():
    _, case, _ = open_case()
    action = notice(case)

    with pytest.raises(Exception, match="no field"):
        action_fact_record(action=action, field="paid_on", value=d("2025-04-15"))
    assert ActionFact.objects.count() == 0


def test_each_step_writes_an_audit_row():
    _, case, _ = open_case()
    action = notice(case)

    event = AuditEvent.objects.get(object_type="enforcement.enforcementaction")
    assert (event.action, event.object_id) == (
        "enforcement.notice_of_noncompliance",
        str(action.pk),
    )


def test_a_mailed_action_needs_its_certified_mail_number():
    _, case, _ = open_case()

    with pytest.raises(Exception, match="mailed_has_certified_number"):
        action_take(
            case=case,
            type="notice_of_noncompliance",
            code="NNC-1",
            delivery="mail",
            fields={"delivered_on": d("2025-03-03"), "correct_by": d("2025-03-31")},
        )
    assert EnforcementAction.objects.count() == 0

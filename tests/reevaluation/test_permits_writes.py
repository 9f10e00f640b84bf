"""Each write service of permits (applications, plan reviews, issue, renewal, modification,
suspension, revocation) evaluates the establishment it changed again as it commits."""

from __future__ import annotations

from datetime import date

import pytest

from fogkeeper.enforcement.services import (
    action_take,
    case_open,
    hearing_conclude,
    hearing_schedule,
)
from fogkeeper.permits.services import (
    permit_application_decide,
    permit_application_deny,
    permit_application_submit,
    permit_issue,
    permit_modifications_apply,
    permit_modify,
    permit_renew,
    permit_renewal_deny,
    permit_revoke,
    permit_revoke_from_decision,
    permit_suspend,
    permit_suspend_from_decision,
    plan_review_decide,
    plan_review_submit,
)
from tests.records import d, make_permit
from tests.reevaluation import check_write, today
from tests.web.enforcement import san_clemente_case

pytestmark = pytest.mark.django_db

DAY = date(2025, 6, 2)


def _applied(fse):
    return permit_application_submit(
        establishment=fse,
        submitted_on=DAY,
        applicant_name="Pier Foods LLC",
        applicant_address="101 Avenida Del Mar",
    )


def _permit(fse):
    return make_permit(
        fse, issued_on="2025-01-01", expires_on="2030-12-31", service_frequency_days=90
    )


def _modified(fse):
    permit = _permit(fse)
    permit_modify(
        permit=permit,
        noticed_on=date(2025, 6, 1),
        effective_on=date(2025, 7, 16),
        changes={"service_frequency_days": 60},
        reason="Grease found",
        today=date(2025, 6, 1),
    )
    return lambda: permit_modifications_apply(on=today(fse), agency=fse.agency)


def _renewal_denied(fse):
    permit = _permit(fse)
    permit_application_submit(
        establishment=fse,
        submitted_on=DAY,
        applicant_name="Pier Foods LLC",
        applicant_address="101 Avenida Del Mar",
        renewal_of=permit,
    )
    return lambda: permit_renewal_deny(permit=permit, denied_on=DAY, reason="fees unpaid")


def _plans(fse):
    return plan_review_submit(
        establishment=fse, submitted_on=DAY, description="new trap", today=today(fse)
    )


def _ordered_suspended(fse):
    permit = _permit(fse)
    decision = san_clemente_case(fse).actions.get(code="MD-1")
    return lambda: permit_suspend_from_decision(
        permit=permit, decision=decision, suspended_from=today(fse)
    )


def _ordered_revoked(fse):
    """Permit SC-1 of `fse` and the manager's decision MD-2 ordering it revoked, after the
    hearing on the revocation notice RN-1."""
    permit = _permit(fse)
    case = case_open(establishment=fse, code="EC-8", opened_on=d("2025-05-01"))
    notice = action_take(
        case=case,
        type="revocation_notice",
        code="RN-1",
        fields={"mailed_on": d("2025-05-20")},
        delivery="mail",
        certified_mail_number="7019 0700 0000 1111 4444",
    )
    hearing = hearing_schedule(
        notice=notice, code="H-2", hearing_on=d("2025-06-02"), noticed_on=d("2025-05-20")
    )
    hearing_conclude(hearing=hearing, concluded_on=d("2025-06-02"))
    decision = action_take(
        case=case,
        type="manager_decision",
        code="MD-2",
        refers_to=hearing,
        fields={"delivered_on": d("2025-06-05"), "orders": "revocation"},
        delivery="personal",
    )
    return lambda: permit_revoke_from_decision(
        permit=permit, decision=decision, revoked_on=today(fse)
    )


WRITES = {
    permit_application_submit: lambda fse: lambda: _applied(fse),
    permit_application_decide: lambda fse: (
        lambda: permit_application_decide(
            application=_applied(fse), decided_on=DAY, approved=False, reason="no plans"
        )
    ),
    permit_application_deny: lambda fse: (
        lambda: permit_application_deny(
            application=_applied(fse), decided_on=DAY, reasons="no grease trap on the plans"
        )
    ),
    permit_issue: lambda fse: (
        lambda: permit_issue(
            establishment=fse,
            number="SC-9",
            issued_on=date(2025, 1, 1),
            expires_on=date(2027, 12, 31),
            missing_override="issued on paper",
        )
    ),
    permit_renew: lambda fse: (
        lambda: permit_renew(
            permit=_permit(fse), number="SC-2", issued_on=DAY, expires_on=date(2029, 12, 31)
        )
    ),
    permit_modify: lambda fse: (
        lambda: permit_modify(
            permit=_permit(fse),
            noticed_on=date(2025, 6, 1),
            effective_on=date(2025, 7, 16),
            changes={"service_frequency_days": 60},
            reason="Grease found",
            today=date(2025, 6, 1),
        )
    ),
    permit_modifications_apply: _modified,
    permit_suspend: lambda fse: (
        lambda: permit_suspend(
            permit=_permit(fse), suspended_from=DAY, suspended_until=date(2025, 7, 31)
        )
    ),
    permit_suspend_from_decision: _ordered_suspended,
    permit_revoke_from_decision: _ordered_revoked,
    permit_revoke: lambda fse: lambda: permit_revoke(permit=_permit(fse), revoked_on=DAY),
    permit_renewal_deny: _renewal_denied,
    plan_review_submit: lambda fse: lambda: _plans(fse),
    plan_review_decide: lambda fse: (
        lambda: plan_review_decide(
            review=_plans(fse), decided_on=DAY, outcome="approved", notes="", today=today(fse)
        )
    ),
}


@pytest.mark.parametrize("service", list(WRITES), ids=[f.__name__ for f in WRITES])
def test_the_write_evaluates_its_establishment_again_as_it_commits(service):
    check_write(WRITES[service])

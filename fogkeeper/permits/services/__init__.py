"""Writes of permits and permit applications (see registry.services for the conventions):
applications, issuance and renewal, suspension and revocation, modifications of the terms,
and plan review, each in its own module; every name is imported here."""

from ..requirements import application_spec
from .applications import (
    permit_application_decide,
    permit_application_deny,
    permit_application_submit,
)
from .decisions import (
    ORDERS,
    decision_orders,
    decisions_ordering,
    permit_renewal_deny,
    permit_revoke,
    permit_revoke_from_decision,
    permit_suspend,
    permit_suspend_from_decision,
)
from .issuance import MAX_TERM, check_term, permit_issue, permit_renew
from .modifications import (
    MODIFIABLE,
    NOTICE,
    NOTICE_AFTER_INSPECTION,
    modification_notice,
    permit_modifications_apply,
    permit_modify,
)
from .plans import PLANS, plan_review_decide, plan_review_submit
from .shared import ALLOWED_FREQUENCIES, FREQUENCY_RULE, check_frequency

__all__ = [
    "ALLOWED_FREQUENCIES",
    "FREQUENCY_RULE",
    "MAX_TERM",
    "MODIFIABLE",
    "NOTICE",
    "NOTICE_AFTER_INSPECTION",
    "ORDERS",
    "PLANS",
    "application_spec",
    "check_frequency",
    "check_term",
    "decision_orders",
    "decisions_ordering",
    "modification_notice",
    "permit_application_decide",
    "permit_application_deny",
    "permit_application_submit",
    "permit_issue",
    "permit_modifications_apply",
    "permit_modify",
    "permit_renew",
    "permit_renewal_deny",
    "permit_revoke",
    "permit_revoke_from_decision",
    "permit_suspend",
    "permit_suspend_from_decision",
    "plan_review_decide",
    "plan_review_submit",
]

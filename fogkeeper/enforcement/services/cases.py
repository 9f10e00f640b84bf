"""Opening an enforcement case and adding the violations it is about."""

from __future__ import annotations

from datetime import date

from django.db import transaction

from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import Actor, Errors, add_error, check_model, refuse

from ..codes import check_code_free, lock_codes
from ..models import CaseViolation, EnforcementCase
from .shared import _audit


def case_open(
    *,
    establishment: FoodServiceEstablishment,
    code: str,
    opened_on: date,
    actor: Actor = None,
) -> EnforcementCase:
    case = EnforcementCase(establishment=establishment, code=code, opened_on=opened_on)
    if getattr(actor, "is_authenticated", False):
        case.opened_by = actor
    errors: Errors = {}
    with transaction.atomic():
        lock_codes(establishment)
        check_code_free(errors, EnforcementCase, establishment, code)
        check_model(case, errors)
        refuse(errors)
        case.save()
        _audit("case_open", case, establishment, actor)
    return case


def violation_add(
    *,
    case: EnforcementCase,
    code: str,
    rule: str,
    subject: str,
    since: date,
    actor: Actor = None,
) -> CaseViolation:
    """A violation the case is about: an engine rule or a checklist item (its citation from
    the pack)."""
    pack = case.establishment.agency.get_pack()
    errors: Errors = {}
    if rule not in pack.rules and rule not in pack.checklist:
        add_error(errors, "rule", f"{rule!r} is not a rule or checklist item of {pack.id}.")
    refuse(errors)
    violation = CaseViolation(
        case=case, code=code, rule=rule, subject=subject, since=since,
        citation=pack.citation(rule),
    )  # fmt: skip
    check_model(violation, errors)
    refuse(errors)
    with transaction.atomic():
        violation.save()
        _audit("violation_add", violation, case.establishment, actor)
    return violation

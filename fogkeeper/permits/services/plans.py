"""Plan review of a grease control device before installation (San Clemente 13.30.060(B))."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from fogkeeper.audit.services import snapshot
from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_model,
    check_order,
    refuse,
)
from fogkeeper.uploads import Kept, document_kind

from ..models import PLAN_OUTCOMES, PlanReview


def _plans_in_step(establishment: FoodServiceEstablishment, actor: Actor) -> None:
    """The establishment's `interceptor_plans_submitted_on` (the engine reads it) is the
    first submission of plans not returned."""
    kept = establishment.plan_reviews.exclude(outcome="returned").order_by("submitted_on")
    first = kept.first()
    value = first.submitted_on if first else None
    if establishment.interceptor_plans_submitted_on != value:
        before = snapshot(establishment)
        establishment.interceptor_plans_submitted_on = value
        establishment.save(update_fields=["interceptor_plans_submitted_on"])
        audit("establishment.plans_submitted", establishment, actor, before=before)


def _review_snapshot(review: PlanReview) -> dict[str, Any]:
    """The review as an audit row keeps it: the plans' file by its stored name."""
    return {**snapshot(review), "document": review.document.name or ""}


PLANS = Kept(field="document", name="The plans", verb="are", whose="The plans'", max_mb=25)


def _plans_kind(document, errors: Errors) -> str | None:
    """The uploaded plans' kind ("pdf", "jpg", "png"), or None when none were uploaded or
    they are refused (the reason added to `errors`)."""
    if not document:
        return None
    try:
        return document_kind(document, PLANS)
    except ValidationError as e:
        for message in e.message_dict["document"]:
            add_error(errors, "document", message)
        return None


def plan_review_submit(
    *,
    establishment: FoodServiceEstablishment,
    submitted_on: date,
    description: str,
    today: date,
    document=None,
    actor: Actor = None,
) -> PlanReview:
    """Plans of a grease control device received for review before installation, with the
    plans themselves when uploaded (a PDF, or a JPEG or PNG scan, up to 25 MB)."""
    review = PlanReview(
        establishment=establishment,
        submitted_on=submitted_on,
        description=(description or "").strip(),
    )
    errors: Errors = {}
    if submitted_on is not None and submitted_on > today:
        add_error(errors, "submitted_on", f"{submitted_on} is in the future (today {today}).")
    kind = _plans_kind(document, errors)
    check_model(review, errors)
    refuse(errors)
    with transaction.atomic():
        if kind is not None:
            name = f"{establishment.code}-plans-{submitted_on}.{kind}"
            review.document.save(name, document, save=False)
        review.save()
        audit("plan_review.submit", review, actor, after=_review_snapshot(review))
        _plans_in_step(establishment, actor)
    reevaluate_on_commit(establishment)
    return review


def plan_review_decide(
    *,
    review: PlanReview,
    decided_on: date,
    outcome: str,
    notes: str,
    today: date,
    actor: Actor = None,
) -> PlanReview:
    """The plans approved, or returned with the corrections asked (notes required)."""
    errors: Errors = {}
    if review.decided_on is not None:
        add_error(errors, "decided_on", f"These plans were decided on {review.decided_on}.")
    check_order(errors, "decided_on", decided_on, review.submitted_on, "their submission")
    if decided_on is not None and decided_on > today:
        add_error(errors, "decided_on", f"{decided_on} is in the future (today {today}).")
    if outcome not in dict(PLAN_OUTCOMES):
        add_error(errors, "outcome", "Approve the plans or return them.")
    if outcome == "returned" and not (notes or "").strip():
        add_error(errors, "notes", "Say what must be corrected before the plans are approved.")
    refuse(errors)
    with transaction.atomic():
        before = _review_snapshot(review)
        review.decided_on, review.outcome, review.notes = decided_on, outcome, notes.strip()
        review.reviewer = actor if getattr(actor, "pk", None) else None
        review.full_clean()
        review.save()
        audit(
            f"plan_review.{outcome}", review, actor, before=before, after=_review_snapshot(review)
        )
        _plans_in_step(review.establishment, actor)
    reevaluate_on_commit(review.establishment)
    return review

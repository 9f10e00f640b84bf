"""The permit pages (fogkeeper/web/permits/views.py): every staff role reads them; applications,
permits and their terms are the manager's ("permit"); plan review the manager's and the
inspector's ("plan_review"), the plans' file read by every staff role. Outside roles reach
none of them."""

from __future__ import annotations

from datetime import date
from hashlib import sha256

from django.core.files.base import ContentFile

from fogkeeper.permits.models import Permit, PermitApplication, PermitLetter, PlanReview

TABLE = """
web:permits                         GET   ok    ok    ok    ok    404   404   404   own   login
web:permits                         POST  405   405   405   405   404   404   404   own   login
web:permit_applications             GET   ok    ok    ok    ok    404   404   404   own   login
web:permit_applications             POST  405   405   405   405   404   404   404   own   login
web:permit_application              GET   ok    ok    ok    ok    404   404   404   404   login
web:permit_application              POST  ok    403   403   403   404   404   404   404   login
web:permit                          GET   ok    ok    ok    ok    404   404   404   404   login
web:permit                          POST  405   405   405   405   404   404   404   404   login
web:permit_pdf                      GET   ok    ok    ok    ok    404   404   404   404   login
web:permit_pdf                      POST  405   405   405   405   404   404   404   404   login
web:permit_letter                   GET   ok    ok    ok    ok    404   404   404   404   login
web:permit_letter                   POST  405   405   405   405   404   404   404   404   login
web:permit_renew                    GET   ok    403   403   403   404   404   404   404   login
web:permit_renew                    POST  ok    403   403   403   404   404   404   404   login
web:permit_renewal_deny             GET   ok    403   403   403   404   404   404   404   login
web:permit_renewal_deny             POST  ok    403   403   403   404   404   404   404   login
web:permit_modify                   GET   ok    403   403   403   404   404   404   404   login
web:permit_modify                   POST  ok    403   403   403   404   404   404   404   login
web:permit_suspend                  GET   ok    403   403   403   404   404   404   404   login
web:permit_suspend                  POST  ok    403   403   403   404   404   404   404   login
web:permit_revoke                   GET   ok    403   403   403   404   404   404   404   login
web:permit_revoke                   POST  ok    403   403   403   404   404   404   404   login
web:plan_review_new                 GET   ok    ok    403   403   404   404   404   404   login
web:plan_review_new                 POST  ok    ok    403   403   404   404   404   404   login
web:plan_review_decide              GET   ok    ok    403   403   404   404   404   404   login
web:plan_review_decide              POST  ok    ok    403   403   404   404   404   404   login
web:plan_review_document            GET   ok    ok    ok    ok    404   404   404   404   login
web:plan_review_document            POST  405   405   405   405   404   404   404   404   login
"""


def _permit(side) -> Permit:
    return Permit.objects.filter(agency=side.agency, status="active").earliest("pk")


def _permit_kwargs(side) -> dict:
    return {"pk": _permit(side).pk}


def _application(side) -> dict:
    """An application of the agency; one is put on record when the demo has none."""
    found = PermitApplication.objects.filter(establishment__agency=side.agency).first()
    if found is None:
        found = PermitApplication.objects.create(
            establishment=_permit(side).establishment,
            submitted_on=date(2026, 11, 20),
            applicant_name="Matrix Foods",
            applicant_address="1 Matrix Way",
        )
    return {"pk": found.pk}


def _letter(side) -> dict:
    found = PermitLetter.objects.filter(permit__agency=side.agency).first()
    if found is None:
        pdf = b"%PDF-1.4 matrix"
        found = PermitLetter.objects.create(
            permit=_permit(side),
            kind="permit_modification_notice",
            pdf=pdf,
            sha256=sha256(pdf).hexdigest(),
        )
    return {"pk": found.pk}


def _plan_review(side) -> dict:
    found = PlanReview.objects.filter(establishment__agency=side.agency).first()
    if found is None:
        found = PlanReview.objects.create(
            establishment=_permit(side).establishment,
            submitted_on=date(2026, 11, 2),
            description="Matrix interceptor",
        )
    return {"code": found.establishment.code, "pk": found.pk}


def _plan_review_document(side) -> dict:
    """A review with its plans' file (the matrix test keeps MEDIA_ROOT in a temporary folder)."""
    found = PlanReview.objects.filter(establishment__agency=side.agency).exclude(document="")
    review = found.first()
    if review is None:
        review = PlanReview.objects.get(pk=_plan_review(side)["pk"])
        review.document.save("matrix-plans.pdf", ContentFile(b"%PDF-1.4 matrix"), save=True)
    return {"code": review.establishment.code, "pk": review.pk}


RECORDS = {
    "web:permit_application": _application,
    "web:permit": _permit_kwargs,
    "web:permit_pdf": _permit_kwargs,
    "web:permit_letter": _letter,
    "web:permit_renew": _permit_kwargs,
    "web:permit_renewal_deny": _permit_kwargs,
    "web:permit_modify": _permit_kwargs,
    "web:permit_suspend": _permit_kwargs,
    "web:permit_revoke": _permit_kwargs,
    "web:plan_review_decide": _plan_review,
    "web:plan_review_document": _plan_review_document,
}

"""URLs of the permit pages: answered only where the agency's ordinance puts a permit on
establishments (Pack.has_permits); elsewhere each says so (404), as the menus offer none.
Plan reviews are the ordinance's own, permit or not."""

from functools import wraps

from django.http import Http404
from django.urls import path

from ..common import policy
from . import views


def _of_a_permit(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        agency = policy.current_agency(request) if request.user.is_authenticated else None
        if agency is not None and not agency.get_pack().has_permits:
            raise Http404(f"The ordinance of {agency.name} puts no permit on establishments.")
        return view(request, *args, **kwargs)

    return wrapper


urlpatterns: list = [
    path("permits/", _of_a_permit(views.permit_list), name="permits"),
    path(
        "permits/applications/", _of_a_permit(views.application_queue), name="permit_applications"
    ),
    path(
        "permits/applications/<int:pk>/",
        _of_a_permit(views.application_review),
        name="permit_application",
    ),
    path("permits/<int:pk>/", _of_a_permit(views.permit_detail), name="permit"),
    path("permits/<int:pk>/permit.pdf", _of_a_permit(views.permit_document), name="permit_pdf"),
    path("permits/<int:pk>/renew/", _of_a_permit(views.permit_renew), name="permit_renew"),
    path(
        "permits/<int:pk>/deny-renewal/",
        _of_a_permit(views.permit_renewal_deny),
        name="permit_renewal_deny",
    ),
    path("permits/<int:pk>/modify/", _of_a_permit(views.permit_modify), name="permit_modify"),
    path("permits/<int:pk>/suspend/", _of_a_permit(views.permit_suspend), name="permit_suspend"),
    path("permits/<int:pk>/revoke/", _of_a_permit(views.permit_revoke), name="permit_revoke"),
    path("permits/letters/<int:pk>.pdf", _of_a_permit(views.permit_letter), name="permit_letter"),
    path(
        "establishments/<str:code>/record/permit-application/",
        _of_a_permit(views.application_record),
        name="record_permit_application",
    ),
    path(
        "establishments/<str:code>/record/permit/",
        _of_a_permit(views.record_permit),
        name="record_permit",
    ),
    path(
        "establishments/<str:code>/plan-reviews/new/",
        views.plan_review_new,
        name="plan_review_new",
    ),
    path(
        "establishments/<str:code>/plan-reviews/<int:pk>/decide/",
        views.plan_review_decide,
        name="plan_review_decide",
    ),
    path(
        "establishments/<str:code>/plan-reviews/<int:pk>/plans/",
        views.plan_review_document,
        name="plan_review_document",
    ),
]

"""URLs of the permit pages (fogkeeper.web.permits)."""

from django.urls import path

from . import permits

urlpatterns: list = [
    path("permits/", permits.permit_list, name="permits"),
    path("permits/applications/", permits.application_queue, name="permit_applications"),
    path(
        "permits/applications/<int:pk>/",
        permits.application_review,
        name="permit_application",
    ),
    path("permits/<int:pk>/", permits.permit_detail, name="permit"),
    path("permits/<int:pk>/permit.pdf", permits.permit_document, name="permit_pdf"),
    path("permits/<int:pk>/renew/", permits.permit_renew, name="permit_renew"),
    path("permits/<int:pk>/deny-renewal/", permits.permit_renewal_deny, name="permit_renewal_deny"),
    path("permits/<int:pk>/modify/", permits.permit_modify, name="permit_modify"),
    path("permits/<int:pk>/suspend/", permits.permit_suspend, name="permit_suspend"),
    path("permits/<int:pk>/revoke/", permits.permit_revoke, name="permit_revoke"),
    path("permits/letters/<int:pk>.pdf", permits.permit_letter, name="permit_letter"),
    path(
        "establishments/<str:code>/record/permit-application/",
        permits.application_record,
        name="record_permit_application",
    ),
    path(
        "establishments/<str:code>/record/permit/",
        permits.record_permit,
        name="record_permit",
    ),
    path(
        "establishments/<str:code>/plan-reviews/new/",
        permits.plan_review_new,
        name="plan_review_new",
    ),
    path(
        "establishments/<str:code>/plan-reviews/<int:pk>/decide/",
        permits.plan_review_decide,
        name="plan_review_decide",
    ),
    path(
        "establishments/<str:code>/plan-reviews/<int:pk>/plans/",
        permits.plan_review_document,
        name="plan_review_document",
    ),
]

"""URLs of the permit pages."""

from django.urls import path

from . import views

urlpatterns: list = [
    path("permits/", views.permit_list, name="permits"),
    path("permits/applications/", views.application_queue, name="permit_applications"),
    path(
        "permits/applications/<int:pk>/",
        views.application_review,
        name="permit_application",
    ),
    path("permits/<int:pk>/", views.permit_detail, name="permit"),
    path("permits/<int:pk>/permit.pdf", views.permit_document, name="permit_pdf"),
    path("permits/<int:pk>/renew/", views.permit_renew, name="permit_renew"),
    path("permits/<int:pk>/deny-renewal/", views.permit_renewal_deny, name="permit_renewal_deny"),
    path("permits/<int:pk>/modify/", views.permit_modify, name="permit_modify"),
    path("permits/<int:pk>/suspend/", views.permit_suspend, name="permit_suspend"),
    path("permits/<int:pk>/revoke/", views.permit_revoke, name="permit_revoke"),
    path("permits/letters/<int:pk>.pdf", views.permit_letter, name="permit_letter"),
    path(
        "establishments/<str:code>/record/permit-application/",
        views.application_record,
        name="record_permit_application",
    ),
    path(
        "establishments/<str:code>/record/permit/",
        views.record_permit,
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

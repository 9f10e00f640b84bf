"""URLs of enrolment: the public request form, its review by staff, setting a password from
the emailed link, and the staff's download of a training's signed log."""

from django.urls import path

from . import enrolment

urlpatterns = [
    path("enrol/", enrolment.enrol_agencies, name="enrol_agencies"),
    path("enrol/<slug:agency_code>/", enrolment.enrol, name="enrol"),
    path("enrol/<slug:agency_code>/sent/", enrolment.enrol_sent, name="enrol_sent"),
    path("account-requests/", enrolment.request_list, name="enrolment_requests"),
    path("account-requests/<int:pk>/", enrolment.request_detail, name="enrolment_request"),
    path(
        "account-requests/<int:pk>/approve/",
        enrolment.request_approve,
        name="enrolment_request_approve",
    ),
    path(
        "account-requests/<int:pk>/reject/",
        enrolment.request_reject,
        name="enrolment_request_reject",
    ),
    path(
        "establishments/<str:code>/trainings/<int:training>/log/",
        enrolment.training_log,
        name="training_log",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        enrolment.password_set,
        name="password_reset_confirm",
    ),
    path("accounts/reset/done/", enrolment.password_set_done, name="password_reset_complete"),
]

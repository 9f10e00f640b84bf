"""URLs of the people pages: the agency's members (the memberships, the invitation, the
manager's change of a role or end of a membership) and enrolment (the public request for an
account, its review by staff, setting a password from the emailed link, and the staff's
download of a training's signed log)."""

from django.urls import path

from . import enrolment, members

urlpatterns: list = [
    path("members/", members.members, name="members"),
    path("members/invite/", members.member_invite, name="member_invite"),
    path("members/<int:pk>/", members.member, name="member"),
    path("members/<int:pk>/role/", members.member_role, name="member_role"),
    path("members/<int:pk>/end/", members.member_end, name="member_end"),
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

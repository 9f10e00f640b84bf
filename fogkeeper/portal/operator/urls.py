from django.urls import path

from . import reports, requests, views

urlpatterns = [
    path("", views.home, name="operator"),
    path("contact/", views.contact, name="operator_contact"),
    path("<str:code>/", views.establishment, name="operator_establishment"),
    path("<str:code>/enforcement/", views.enforcement, name="operator_enforcement"),
    path("<str:code>/letters/<int:letter>.pdf", views.letter_pdf, name="operator_letter"),
    path("<str:code>/invoices/<str:invoice>.pdf", views.invoice_pdf, name="operator_invoice"),
    path("<str:code>/training/", views.training_upload, name="operator_training"),
    path(
        "<str:code>/trainings/<int:training>/log/",
        views.training_log,
        name="operator_training_log",
    ),
    path("<str:code>/employees/", views.employees, name="operator_employees"),
    path("<str:code>/employees/new/", views.employee_add, name="operator_employee_add"),
    path(
        "<str:code>/employees/<int:employee>/left/",
        views.employee_left,
        name="operator_employee_left",
    ),
    path("<str:code>/reports/", reports.reports, name="operator_reports"),
    path("<str:code>/yellow-grease/", views.yellow_grease, name="operator_yellow_grease"),
    path(
        "<str:code>/permit-application/",
        views.permit_application,
        name="operator_permit_application",
    ),
    path("<str:code>/requests/", requests.request_list, name="operator_requests"),
    path("<str:code>/requests/<str:kind>/", requests.request_file, name="operator_request_file"),
    path(
        "<str:code>/notices/<str:action>/answer/",
        views.answer_notice,
        name="operator_notice_answer",
    ),
]

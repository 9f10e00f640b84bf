"""URLs of the enforcement pages: the cases and their letters, the case workbench's steps,
cases started from findings (one establishment's, or the first notice in bulk), and the
clerk's legal calendar."""

from django.urls import path

from . import actions, calendar, cases, from_findings

CASE = "cases/<str:code>/<str:case>"

urlpatterns: list = [
    path("cases/", cases.case_list_page, name="cases"),
    path(f"{CASE}/", cases.case_detail, name="case"),
    path("letters/<int:letter>.pdf", cases.letter_pdf, name="letter"),
    path(f"{CASE}/documents/<str:action>/", cases.case_document, name="case_document"),
    path(f"{CASE}/act/<str:type>/", actions.take_action, name="case_act"),
    path(f"{CASE}/hearing/", actions.schedule_hearing, name="case_hearing"),
    path(f"{CASE}/hearing/concluded/", actions.conclude_hearing, name="case_conclude"),
    path(f"{CASE}/hearing/waived/", actions.waive_hearing, name="case_waiver"),
    path(f"{CASE}/appeal/", actions.file_appeal, name="case_appeal"),
    path(f"{CASE}/fact/", actions.record_fact, name="case_fact"),
    path(f"{CASE}/judgment/", actions.record_judgment, name="case_judgment"),
    path(f"{CASE}/close/", actions.close_case, name="case_close"),
    path("establishments/<str:code>/cases/new/", from_findings.open_case, name="case_open"),
    path("enforcement/bulk-notice/", from_findings.bulk_notice, name="bulk_notice"),
    path(
        "enforcement/bulk-notice/<int:pk>/", from_findings.bulk_notice_run, name="bulk_notice_run"
    ),
    path("calendar/", calendar.calendar_page, name="calendar"),
    path("calendar/calendar.csv", calendar.calendar_csv, name="calendar_csv"),
    path("calendar/calendar.ics", calendar.calendar_ics, name="calendar_ics"),
]

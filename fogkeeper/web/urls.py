from django.contrib.auth import views as auth_views
from django.urls import path

from . import (
    audit_urls,
    calendar,
    case_actions,
    case_open,
    cases,
    disputes,
    enrolment_urls,
    inbox_urls,
    incidents_urls,
    lists_urls,
    map,
    members_urls,
    permits_urls,
    photos,
    receipts,
    records_urls,
    reports_urls,
    samples,
    sewers_urls,
    sweeps_urls,
    views,
)
from .billing import urls as billing_urls
from .communications import urls as communications_urls
from .field import urls as field_urls
from .onboarding import urls as onboarding_urls
from .ordinance import urls as ordinance_urls
from .registry import urls_equipment, urls_sites

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("dashboard/", views.dashboard, name="dashboard"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(template_name="web/login.html"),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("agency/switch/", views.agency_switch, name="agency_switch"),
    path("establishments/", views.establishment_list, name="establishments"),
    path("establishments/<str:code>/", views.establishment_detail, name="establishment"),
    path("map/", map.map_page, name="map"),
    path("map/data.json", map.map_data, name="map_data"),
    path("establishments/<str:code>/record/service/", views.record_service, name="record_service"),
    path(
        "establishments/<str:code>/record/inspection/",
        views.record_inspection,
        name="record_inspection",
    ),
    path(
        "establishments/<str:code>/record/sample/",
        samples.record_sample,
        name="record_sample",
    ),
    path(
        "establishments/<str:code>/record/training/",
        views.record_training,
        name="record_training",
    ),
    path(
        "establishments/<str:code>/record/operator-change/",
        views.record_operator_change,
        name="record_operator_change",
    ),
    path(
        "establishments/<str:code>/record/yellow-grease/",
        receipts.record_yellow_grease,
        name="record_yellow_grease",
    ),
    path(
        "establishments/<str:code>/services/<int:pk>/dispute/",
        disputes.service_dispute_page,
        name="service_dispute",
    ),
    path("cases/", cases.case_list_page, name="cases"),
    path("cases/<str:code>/<str:case>/", cases.case_detail, name="case"),
    path("letters/<int:letter>.pdf", cases.letter_pdf, name="letter"),
    path("photos/<int:photo>/", photos.photo, name="photo"),
    path("photos/<int:photo>/thumbnail.jpg", photos.thumbnail, name="photo_thumbnail"),
    path("calendar/", calendar.calendar_page, name="calendar"),
    path("calendar/calendar.csv", calendar.calendar_csv, name="calendar_csv"),
    path("calendar/calendar.ics", calendar.calendar_ics, name="calendar_ics"),
    path("establishments/<str:code>/cases/new/", case_open.open_case, name="case_open"),
    path("enforcement/bulk-notice/", case_open.bulk_notice, name="bulk_notice"),
    path("enforcement/bulk-notice/<int:pk>/", case_open.bulk_notice_run, name="bulk_notice_run"),
    path(
        "cases/<str:code>/<str:case>/act/<str:type>/",
        case_actions.take_action,
        name="case_act",
    ),
    path(
        "cases/<str:code>/<str:case>/hearing/", case_actions.schedule_hearing, name="case_hearing"
    ),
    path(
        "cases/<str:code>/<str:case>/hearing/concluded/",
        case_actions.conclude_hearing,
        name="case_conclude",
    ),
    path("cases/<str:code>/<str:case>/appeal/", case_actions.file_appeal, name="case_appeal"),
    path("cases/<str:code>/<str:case>/fact/", case_actions.record_fact, name="case_fact"),
    path(
        "cases/<str:code>/<str:case>/judgment/", case_actions.record_judgment, name="case_judgment"
    ),
    *billing_urls.urlpatterns,
    *urls_sites.urlpatterns,
    *urls_equipment.urlpatterns,
    *permits_urls.urlpatterns,
    *incidents_urls.urlpatterns,
    *inbox_urls.urlpatterns,
    *enrolment_urls.urlpatterns,
    *members_urls.urlpatterns,
    *reports_urls.urlpatterns,
    *ordinance_urls.urlpatterns,
    *onboarding_urls.urlpatterns,
    *audit_urls.urlpatterns,
    *sewers_urls.urlpatterns,
    *records_urls.urlpatterns,
    *field_urls.urlpatterns,
    *lists_urls.urlpatterns,
    *sweeps_urls.urlpatterns,
    *communications_urls.urlpatterns,
]

"""URLs of the incident pages."""

from django.urls import path

from . import imports, views

urlpatterns: list = [
    path(
        "establishments/<str:code>/record/incident/",
        views.record_incident,
        name="record_incident",
    ),
    path("incidents/", views.incident_list, name="incidents"),
    path("incidents/review/", views.incident_review, name="incident_review"),
    path("incidents/imports/", imports.import_list, name="incident_imports"),
    path("incidents/imports/<int:pk>/", imports.import_detail, name="incident_import"),
    path(
        "incidents/imports/<int:pk>/requeue/",
        imports.import_requeue,
        name="incident_import_requeue",
    ),
    path("incidents/<int:pk>/", views.incident_detail, name="incident"),
    path("incidents/<int:pk>/edit/", views.incident_edit, name="incident_edit"),
    path("incidents/<int:pk>/match/", views.incident_match_page, name="incident_match"),
    path(
        "incidents/<int:pk>/set-aside/",
        views.incident_set_aside_page,
        name="incident_set_aside",
    ),
]

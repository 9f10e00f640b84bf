"""URLs of the incident pages."""

from django.urls import path

from . import incident_imports, incidents

urlpatterns: list = [
    path(
        "establishments/<str:code>/record/incident/",
        incidents.record_incident,
        name="record_incident",
    ),
    path("incidents/", incidents.incident_list, name="incidents"),
    path("incidents/review/", incidents.incident_review, name="incident_review"),
    path("incidents/imports/", incident_imports.import_list, name="incident_imports"),
    path("incidents/imports/<int:pk>/", incident_imports.import_detail, name="incident_import"),
    path(
        "incidents/imports/<int:pk>/requeue/",
        incident_imports.import_requeue,
        name="incident_import_requeue",
    ),
    path("incidents/<int:pk>/", incidents.incident_detail, name="incident"),
    path("incidents/<int:pk>/edit/", incidents.incident_edit, name="incident_edit"),
    path("incidents/<int:pk>/match/", incidents.incident_match_page, name="incident_match"),
    path(
        "incidents/<int:pk>/set-aside/",
        incidents.incident_set_aside_page,
        name="incident_set_aside",
    ),
]

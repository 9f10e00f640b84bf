"""The required reports' staff pages: an establishment's, and the manager's record of the
agency's monitoring at the permittee's cost."""

from django.urls import path

from . import views

urlpatterns = [
    path("establishments/<str:code>/reports/", views.required_reports, name="required_reports"),
    path(
        "establishments/<str:code>/reports/<int:requirement>/<str:due>/monitoring/",
        views.report_monitoring,
        name="report_monitoring",
    ),
    path(
        "establishments/<str:code>/reports/files/<int:submission>/",
        views.report_file,
        name="report_file",
    ),
]

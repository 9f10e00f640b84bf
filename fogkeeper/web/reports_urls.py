"""URLs of the reports pages."""

from django.urls import path

from . import reports

urlpatterns: list = [
    path("reports/annual/", reports.annual, name="annual_report"),
]

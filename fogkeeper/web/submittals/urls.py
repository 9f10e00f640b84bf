"""The required reports' staff page."""

from django.urls import path

from . import views

urlpatterns = [
    path("establishments/<str:code>/reports/", views.required_reports, name="required_reports"),
]

"""URLs of the requests operators file: one request, read and answered."""

from django.urls import path

from . import views

urlpatterns: list = [path("requests/<int:pk>/", views.filing_page, name="filing")]

"""URLs of the ordinance page."""

from django.urls import path

from . import views

urlpatterns: list = [
    path("ordinance/", views.ordinance_page, name="ordinance"),
]

"""URLs of the staff inbox."""

from django.urls import path

from . import views

urlpatterns: list = [path("inbox/", views.inbox_page, name="inbox")]

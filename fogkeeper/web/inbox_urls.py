"""URLs of the staff inbox."""

from django.urls import path

from . import inbox

urlpatterns: list = [path("inbox/", inbox.inbox_page, name="inbox")]

"""URLs of the letters and emails to many establishments (views.py)."""

from django.urls import path

from . import views

urlpatterns: list = [
    path("communications/", views.communication_list, name="communications"),
    path("communications/new/", views.communication_new, name="communication_new"),
    path("communications/<int:pk>/", views.communication_detail, name="communication"),
    path("communications/<int:pk>/send/", views.communication_send, name="communication_send"),
    path(
        "communications/<int:pk>/requeue/",
        views.communication_requeue,
        name="communication_requeue",
    ),
    path(
        "communications/<int:pk>/attachment.pdf",
        views.communication_attachment,
        name="communication_attachment",
    ),
    path(
        "communications/<int:pk>/letters/<str:code>.pdf",
        views.communication_letter,
        name="communication_letter",
    ),
    path(
        "communications/unsubscribe/<str:token>/",
        views.communication_unsubscribe,
        name="communication_unsubscribe",
    ),
]

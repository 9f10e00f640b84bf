"""URLs of the audit pages: the agency's trail and an establishment's own."""

from django.urls import path

from . import views

urlpatterns: list = [
    path("audit/", views.audit_list, name="audit"),
    path(
        "establishments/<str:code>/audit/",
        views.establishment_audit,
        name="establishment_audit",
    ),
]

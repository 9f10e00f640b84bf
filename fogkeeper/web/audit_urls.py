"""URLs of the audit pages: the agency's trail and an establishment's own."""

from django.urls import path

from . import audit

urlpatterns = [
    path("audit/", audit.audit_list, name="audit"),
    path(
        "establishments/<str:code>/audit/",
        audit.establishment_audit,
        name="establishment_audit",
    ),
]

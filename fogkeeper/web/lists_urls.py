"""URLs of the agency-wide lists (fogkeeper/web/lists.py)."""

from django.urls import path

from . import lists

urlpatterns = [
    path("findings/", lists.finding_list, name="findings"),
    path("invoices/", lists.invoice_list, name="invoices"),
    path("enforcement/actions/", lists.action_list, name="enforcement_actions"),
]

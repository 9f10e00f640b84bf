"""URLs of the money pages: views.py and the annual fee invoices (annual_fees.py)."""

from django.urls import path

from . import annual_fees
from . import views as billing

urlpatterns: list = [
    path("billing/fees/", billing.fee_schedules, name="billing_fees"),
    path("establishments/<str:code>/account/", billing.account, name="account"),
    path("establishments/<str:code>/invoices/new/", billing.invoice_new, name="invoice_new"),
    path(
        "establishments/<str:code>/invoices/<str:invoice>/",
        billing.invoice_detail,
        name="invoice",
    ),
    path(
        "establishments/<str:code>/invoices/<str:invoice>/invoice.pdf",
        billing.invoice_document,
        name="invoice_pdf",
    ),
    path("establishments/<str:code>/liens/new/", billing.lien_new, name="lien_new"),
    path(
        "establishments/<str:code>/liens/<int:pk>/release/",
        billing.lien_release_page,
        name="lien_release",
    ),
    path("billing/annual-fees/", annual_fees.annual_fee_list, name="annual_fees"),
    path("billing/annual-fees/start/", annual_fees.annual_fee_start, name="annual_fee_start"),
    path("billing/annual-fees/<int:pk>/", annual_fees.annual_fee_run, name="annual_fee_run"),
    path(
        "billing/annual-fees/<int:pk>/requeue/",
        annual_fees.annual_fee_requeue,
        name="annual_fee_requeue",
    ),
]

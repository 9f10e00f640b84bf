"""URLs of the annual fee invoices (fogkeeper/web/annual_fees.py)."""

from django.urls import path

from . import annual_fees

urlpatterns: list = [
    path("billing/annual-fees/", annual_fees.annual_fee_list, name="annual_fees"),
    path("billing/annual-fees/start/", annual_fees.annual_fee_start, name="annual_fee_start"),
    path("billing/annual-fees/<int:pk>/", annual_fees.annual_fee_run, name="annual_fee_run"),
    path(
        "billing/annual-fees/<int:pk>/requeue/",
        annual_fees.annual_fee_requeue,
        name="annual_fee_requeue",
    ),
]

from django.apps import AppConfig


class BillingConfig(AppConfig):
    name = "fogkeeper.billing"
    verbose_name = "Billing"

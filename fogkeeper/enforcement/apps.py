from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "fogkeeper.enforcement"
    verbose_name = "Enforcement cases"

from django.apps import AppConfig


class ReportingConfig(AppConfig):
    name = "fogkeeper.reporting"
    verbose_name = "State reporting"

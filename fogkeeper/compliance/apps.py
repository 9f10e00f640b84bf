from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    name = "fogkeeper.compliance"
    verbose_name = "Compliance findings"

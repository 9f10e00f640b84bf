from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "fogkeeper.audit"
    verbose_name = "Audit trail"

from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "fogkeeper.audit"
    verbose_name = "Audit trail"

    def ready(self) -> None:
        from .access import connect

        connect()  # every change of who may do what is an audit row (access.py)

from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    name = "fogkeeper.compliance"
    verbose_name = "Compliance findings"

    def ready(self) -> None:
        from fogkeeper import signals

        from . import selectors

        signals.findings_wanted.connect(selectors.violation_findings, dispatch_uid="compliance")
        signals.report_wanted.connect(selectors.report, dispatch_uid="compliance")

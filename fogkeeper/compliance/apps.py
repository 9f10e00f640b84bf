from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    name = "fogkeeper.compliance"
    verbose_name = "Compliance findings"

    def ready(self) -> None:
        from fogkeeper import upcalls

        from . import resweep, selectors

        upcalls.provide("reevaluate", resweep.reevaluate)
        upcalls.provide("findings_of", selectors.violation_findings)
        upcalls.provide("report_of", selectors.report)

"""What the sweep stored, for reading: nothing here is entered or edited by hand."""

from django.contrib import admin

from fogkeeper.audit.admin import ReadOnlyAdmin

from .models import ComplianceStatus, Finding, SweepRun


@admin.register(SweepRun)
class SweepRunAdmin(ReadOnlyAdmin):
    list_display = (
        "agency",
        "as_of",
        "started_at",
        "finished_at",
        "establishments",
        "opened",
        "closed",
        "changed",
        "error_count",
    )
    list_filter = ("agency", "as_of")
    date_hierarchy = "started_at"
    list_select_related = ("agency",)

    @admin.display(description="errors")
    def error_count(self, run: SweepRun) -> int:
        return len(run.errors)


@admin.register(ComplianceStatus)
class ComplianceStatusAdmin(ReadOnlyAdmin):
    list_display = ("establishment", "status", "open_violations", "next_due", "as_of")
    list_filter = ("status", "establishment__agency")
    search_fields = ("establishment__code", "establishment__name")
    list_select_related = ("establishment",)


@admin.register(Finding)
class FindingAdmin(ReadOnlyAdmin):
    list_display = (
        "establishment",
        "rule",
        "subject",
        "severity",
        "open",
        "since",
        "due",
        "closed_on",
        "first_seen_on",
        "last_seen_on",
    )
    list_filter = (
        "open",
        "severity",
        "rule",
        "establishment__compliance__status",
        "establishment__agency",
    )
    search_fields = ("establishment__code", "establishment__name", "subject", "message")
    list_select_related = ("establishment",)
    date_hierarchy = "since"

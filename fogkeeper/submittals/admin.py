from django.contrib import admin

from .models import AgencyMonitoring, ReportRequirement, ReportSubmission


@admin.register(ReportRequirement)
class ReportRequirementAdmin(admin.ModelAdmin):
    list_display = ("establishment", "kind", "first_due_on", "every_months", "ended_on")
    list_filter = ("kind",)
    raw_id_fields = ("establishment",)


@admin.register(ReportSubmission)
class ReportSubmissionAdmin(admin.ModelAdmin):
    list_display = ("requirement", "due_on", "submitted_on")
    raw_id_fields = ("requirement",)


@admin.register(AgencyMonitoring)
class AgencyMonitoringAdmin(admin.ModelAdmin):
    list_display = ("requirement", "due_on", "performed_on", "cost", "invoice")
    raw_id_fields = ("requirement", "invoice")

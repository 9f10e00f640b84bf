from django.contrib import admin

from fogkeeper.audit.admin import ReadOnlyAdmin
from fogkeeper.registry.admin import RecordAdmin

from .models import Permit, PermitApplication, PermitLetter, PermitModification, PlanReview


@admin.register(PermitApplication)
class PermitApplicationAdmin(RecordAdmin):
    list_display = [
        "applicant_name",
        "establishment",
        "submitted_on",
        "renewal_of",
        "decided_on",
        "approved",
    ]
    list_filter = ["establishment__agency", "approved"]
    search_fields = ["applicant_name", "establishment__code", "establishment__name"]
    list_select_related = ["establishment", "renewal_of"]
    autocomplete_fields = ["establishment", "renewal_of"]
    date_hierarchy = "submitted_on"


@admin.register(Permit)
class PermitAdmin(RecordAdmin):
    list_display = [
        "number",
        "establishment",
        "holder",
        "issued_on",
        "expires_on",
        "status",
        "ended_on",
        "agency",
    ]
    list_filter = ["agency", "status"]
    search_fields = ["number", "holder", "establishment__code", "establishment__name"]
    list_select_related = ["agency", "establishment"]
    autocomplete_fields = ["establishment", "application"]
    date_hierarchy = "issued_on"


@admin.register(PermitModification)
class PermitModificationAdmin(RecordAdmin):
    list_display = ["permit", "noticed_on", "effective_on", "applied_on", "inspection"]
    list_filter = ["permit__agency"]
    search_fields = ["permit__number", "permit__establishment__code", "reason"]
    list_select_related = ["permit", "inspection"]
    raw_id_fields = ["permit", "inspection", "letter"]


@admin.register(PermitLetter)
class PermitLetterAdmin(ReadOnlyAdmin):
    """A letter as it was sent: read here, never added, edited or deleted (the permit's page
    sends and lists them)."""

    list_display = ["permit", "kind", "sha256", "created_at"]
    list_per_page = 50
    search_fields = ["permit__number", "kind"]
    list_select_related = ["permit"]
    raw_id_fields = ["permit"]
    exclude = ["pdf"]


@admin.register(PlanReview)
class PlanReviewAdmin(RecordAdmin):
    list_display = ["establishment", "submitted_on", "decided_on", "outcome", "reviewer"]
    list_filter = ["establishment__agency", "outcome"]
    search_fields = ["establishment__code", "establishment__name", "description"]
    list_select_related = ["establishment", "reviewer"]
    raw_id_fields = ["establishment", "reviewer"]
    # the plans' file comes through the plan review page, which checks what it is
    readonly_fields = ["document"]

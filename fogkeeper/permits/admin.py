from django.contrib import admin

from fogkeeper.registry.admin import RecordAdmin

from .models import Permit, PermitApplication


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

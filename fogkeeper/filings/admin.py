from django.contrib import admin

from fogkeeper.registry.admin import RecordAdmin

from .models import Filing


@admin.register(Filing)
class FilingAdmin(RecordAdmin):
    recorded_as_is = True
    list_display = ["pk", "establishment", "kind", "filed_on", "outcome", "decided_on"]
    list_filter = ["establishment__agency", "kind", "outcome"]
    search_fields = ["establishment__code", "establishment__name"]
    list_select_related = ["establishment"]
    date_hierarchy = "filed_on"

from django.contrib import admin

from fogkeeper.registry.admin import RecordAdmin

from .models import SegmentCleaning


@admin.register(SegmentCleaning)
class SegmentCleaningAdmin(RecordAdmin):
    list_display = ["segment", "cleaned_on", "crew", "method", "fog_found", "agency"]
    list_filter = ["agency", "method", "fog_found"]
    search_fields = ["segment__code", "crew", "notes"]
    date_hierarchy = "cleaned_on"
    list_select_related = ["agency", "segment"]
    raw_id_fields = ["segment"]
    readonly_fields = ["recorded_by", "recorded_at"]

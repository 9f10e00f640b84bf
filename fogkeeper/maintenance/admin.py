from django.contrib import admin

from fogkeeper.registry.admin import RecordAdmin

from .models import Service, YellowGreasePickup


@admin.register(Service)
class ServiceAdmin(RecordAdmin):
    list_display = [
        "manifest_number",
        "date",
        "device",
        "hauler",
        "full_pump_out",
        "gallons_removed",
        "fog_inches",
        "solids_inches",
    ]
    list_filter = ["device__establishment__agency", "full_pump_out", "hauler"]
    search_fields = [
        "manifest_number",
        "device__code",
        "device__establishment__code",
        "device__establishment__name",
        "hauler__name",
    ]
    list_select_related = ["device__establishment", "hauler"]
    autocomplete_fields = ["device", "hauler"]
    date_hierarchy = "date"


@admin.register(YellowGreasePickup)
class YellowGreasePickupAdmin(RecordAdmin):
    list_display = ["date", "establishment", "hauler", "gallons", "manifest_number"]
    list_filter = ["establishment__agency", "hauler"]
    search_fields = ["manifest_number", "establishment__code", "establishment__name"]
    list_select_related = ["establishment", "hauler"]
    autocomplete_fields = ["establishment", "hauler"]
    date_hierarchy = "date"

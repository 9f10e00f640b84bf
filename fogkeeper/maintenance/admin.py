from django.contrib import admin

from fogkeeper.registry.admin import RecordAdmin

from .models import Service, ServiceDispute, YellowGreasePickup


@admin.register(Service)
class ServiceAdmin(RecordAdmin):
    recorded_as_is = True
    list_display = [
        "manifest_number",
        "date",
        "device",
        "hauler",
        "full_pump_out",
        "gallons_removed",
        "fog_inches",
        "solids_inches",
        "source",
    ]
    list_filter = ["device__establishment__agency", "source", "full_pump_out", "hauler"]
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


@admin.register(ServiceDispute)
class ServiceDisputeAdmin(RecordAdmin):
    recorded_as_is = True
    list_display = ["service", "raised_on", "raised_by", "withdrawn_on"]
    list_filter = [
        "service__device__establishment__agency",
        ("withdrawn_on", admin.EmptyFieldListFilter),
    ]
    search_fields = ["service__manifest_number", "service__device__establishment__code", "reason"]
    list_select_related = ["service", "raised_by"]
    autocomplete_fields = ["service"]
    date_hierarchy = "raised_on"


@admin.register(YellowGreasePickup)
class YellowGreasePickupAdmin(RecordAdmin):
    list_display = ["date", "establishment", "hauler", "gallons", "manifest_number"]
    list_filter = ["establishment__agency", "hauler"]
    search_fields = ["manifest_number", "establishment__code", "establishment__name"]
    list_select_related = ["establishment", "hauler"]
    autocomplete_fields = ["establishment", "hauler"]
    date_hierarchy = "date"

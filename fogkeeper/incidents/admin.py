from django.contrib import admin

from fogkeeper.registry.admin import RecordAdmin
from fogkeeper.registry.models import normalise_address

from .models import Incident


@admin.register(Incident)
class IncidentAdmin(RecordAdmin):
    list_display = [
        "code",
        "date",
        "kind",
        "establishment",
        "attributed",
        "fog_caused",
        "gallons",
        "category",
        "category_source",
        "source",
        "agency",
    ]
    list_filter = ["agency", "kind", "attributed", "fog_caused", "category", "source"]
    search_fields = ["code", "address", "normalised_address", "establishment__name", "cause"]
    list_select_related = ["agency", "establishment"]
    autocomplete_fields = ["establishment"]
    readonly_fields = ["normalised_address"]
    date_hierarchy = "date"

    def save_model(self, request, obj, form, change):
        obj.normalised_address = normalise_address(obj.address)
        super().save_model(request, obj, form, change)

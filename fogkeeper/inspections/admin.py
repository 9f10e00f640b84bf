from django import forms
from django.contrib import admin

from fogkeeper.registry.admin import RecordAdmin, RecordInline

from .models import ChecklistAnswer, Inspection, InspectionPhoto, Measurement, Sample
from .photos import photo_problem, thumbnail_queue


class MeasurementInline(RecordInline):
    model = Measurement
    fields = [
        "device",
        "fog_inches",
        "solids_inches",
        "final_chamber_floating_oil",
        "sludge_to_outlet_inches",
    ]
    autocomplete_fields = ["device"]


class ChecklistAnswerInline(RecordInline):
    model = ChecklistAnswer
    fields = ["item", "device", "compliant", "note"]
    autocomplete_fields = ["device"]


@admin.register(Inspection)
class InspectionAdmin(RecordAdmin):
    list_display = ["code", "date", "establishment", "inspector"]
    list_filter = ["establishment__agency"]
    search_fields = ["code", "establishment__code", "establishment__name", "notes"]
    list_select_related = ["establishment", "inspector"]
    autocomplete_fields = ["establishment"]
    raw_id_fields = ["inspector"]
    date_hierarchy = "date"
    inlines = [MeasurementInline, ChecklistAnswerInline]


@admin.register(Measurement)
class MeasurementAdmin(RecordAdmin):
    list_display = [
        "inspection",
        "device",
        "fog_inches",
        "solids_inches",
        "final_chamber_floating_oil",
        "sludge_to_outlet_inches",
    ]
    list_filter = ["inspection__establishment__agency"]
    search_fields = ["inspection__code", "device__code", "inspection__establishment__name"]
    list_select_related = ["inspection", "device__establishment"]
    autocomplete_fields = ["inspection", "device"]


@admin.register(ChecklistAnswer)
class ChecklistAnswerAdmin(RecordAdmin):
    list_display = ["inspection", "item", "device", "compliant"]
    list_filter = ["inspection__establishment__agency", "compliant"]
    search_fields = ["item", "inspection__code", "inspection__establishment__name", "note"]
    list_select_related = ["inspection", "device__establishment"]
    autocomplete_fields = ["inspection", "device"]


class InspectionPhotoForm(forms.ModelForm):
    def clean_image(self):
        image = self.cleaned_data["image"]
        problem = photo_problem(image) if image and image != self.initial.get("image") else None
        if problem:
            raise forms.ValidationError(problem)
        return image


@admin.register(InspectionPhoto)
class InspectionPhotoAdmin(RecordAdmin):
    """A photo added here is checked as on the inspection form, and its thumbnail made."""

    form = InspectionPhotoForm
    list_display = ["inspection", "image", "caption"]
    list_filter = ["inspection__establishment__agency"]
    search_fields = ["inspection__code", "inspection__establishment__name", "caption"]
    list_select_related = ["inspection__establishment"]
    autocomplete_fields = ["inspection"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if "image" in form.changed_data:
            InspectionPhoto.objects.filter(pk=obj.pk).update(thumbnail="")
            thumbnail_queue(obj)


@admin.register(Sample)
class SampleAdmin(RecordAdmin):
    list_display = ["code", "date", "establishment", "device", "parameter", "value", "unit"]
    list_filter = ["establishment__agency", "parameter"]
    search_fields = ["code", "parameter", "establishment__code", "establishment__name"]
    list_select_related = ["establishment", "device"]
    autocomplete_fields = ["establishment", "device", "inspection"]
    date_hierarchy = "date"

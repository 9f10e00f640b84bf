"""Admin of the registry, and the base classes every app's admin uses: saves write an audit
row, deletions go through the record retention check."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected as django_delete_selected
from django.contrib.admin.utils import unquote
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy

from fogkeeper.audit.services import snapshot

from .models import (
    Agency,
    ApprovedException,
    FoodServiceEstablishment,
    GreaseControlDevice,
    Hauler,
    IntervalApproval,
    Lateral,
    OperationChange,
    Operator,
    OperatorTenure,
    Parcel,
    PropertyOwner,
    ServiceContract,
    SewerSegment,
)
from .retention import record_delete, record_delete_check
from .services import audit


def _refusal(obj: models.Model, error: ValidationError) -> str:
    return f"{obj._meta.verbose_name} “{obj}” was not deleted: {' '.join(error.messages)}"


@admin.action(
    permissions=["delete"], description=gettext_lazy("Delete selected %(verbose_name_plural)s")
)
def delete_selected(modeladmin, request, queryset):
    """Django's action, whose confirmed deletion goes through the record retention check."""
    if not request.POST.get("post"):
        return django_delete_selected(modeladmin, request, queryset)
    deleted = modeladmin.delete_queryset(request, queryset)
    if deleted:
        modeladmin.message_user(request, f"Deleted {deleted} record(s).", messages.SUCCESS)
    return None


# The range of each decimal field whose values may be negative; every other decimal of the
# program (depths, gallons, capacities) is a quantity: never negative.
DECIMAL_RANGES = {"latitude": (-90, 90), "longitude": (-180, 180)}


def decimal_range(db_field, kwargs: dict) -> dict:
    """The admin's field for a decimal kept within its range (a quantity: from 0)."""
    if isinstance(db_field, models.DecimalField):
        low, high = DECIMAL_RANGES.get(db_field.name, (0, None))
        return {"min_value": low, "max_value": high, **kwargs}
    return kwargs


class RecordAdmin(admin.ModelAdmin):
    """Every save is an audit row; a deletion is refused inside the retention period. A record
    kept as it was recorded (`recorded_as_is`: a pump-out, a dispute) is added here but never
    edited in place: a correction is a new record (ACCESS.md)."""

    actions = [delete_selected]
    list_per_page = 50
    recorded_as_is = False

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        return super().formfield_for_dbfield(db_field, request, **decimal_range(db_field, kwargs))

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and self.recorded_as_is:
            fields += [
                f.name
                for f in self.model._meta.fields
                if f.editable and not f.auto_created and f.name not in fields
            ]
        return fields

    def _audit_save(self, request, obj: models.Model, change: bool) -> None:
        before = snapshot(type(obj)._default_manager.get(pk=obj.pk)) if change else None
        obj.save()
        verb = "change" if change else "add"
        audit(f"{obj._meta.model_name}.{verb}", obj, request.user, before=before, reason="admin")

    def save_model(self, request, obj, form, change):
        if change and self.recorded_as_is:
            return  # nothing of it is edited here (every field read-only): no save, no row
        self._audit_save(request, obj, change)

    def save_formset(self, request, form, formset, change):
        instances = formset.save(commit=False)
        for obj in formset.deleted_objects:
            record_delete(obj, actor=request.user, on=timezone.localdate(), reason="admin")
        for obj in instances:
            self._audit_save(request, obj, obj.pk is not None)
        formset.save_m2m()

    def delete_view(self, request, object_id, extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        if obj is not None:
            try:
                record_delete_check(obj, on=timezone.localdate())
            except ValidationError as e:
                self.message_user(request, _refusal(obj, e), messages.ERROR)
                opts = obj._meta
                url = reverse(
                    f"admin:{opts.app_label}_{opts.model_name}_change",
                    args=[obj.pk],
                    current_app=self.admin_site.name,
                )
                return HttpResponseRedirect(url)
        return super().delete_view(request, object_id, extra_context)

    def delete_model(self, request, obj):
        record_delete(obj, actor=request.user, on=timezone.localdate(), reason="admin")

    def delete_queryset(self, request, queryset) -> int:  # type: ignore[override]  # read above
        """Delete what may be deleted, tell what was refused and why; returns the count."""
        deleted = 0
        for obj in queryset:
            try:
                with transaction.atomic():
                    record_delete(obj, actor=request.user, on=timezone.localdate(), reason="admin")
            except ValidationError as e:
                self.message_user(request, _refusal(obj, e), messages.ERROR)
            else:
                deleted += 1
        return deleted


class RecordInline(admin.TabularInline):
    """Inline rows are added and edited here; they are deleted from their own page, where the
    retention check applies."""

    extra = 0
    can_delete = False
    show_change_link = True

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        return super().formfield_for_dbfield(db_field, request, **decimal_range(db_field, kwargs))


@admin.register(Agency)
class AgencyAdmin(RecordAdmin):
    list_display = ["code", "name", "pack"]
    search_fields = ["code", "name"]
    list_filter = ["pack"]


@admin.register(PropertyOwner)
class PropertyOwnerAdmin(RecordAdmin):
    list_display = ["name", "agency", "phone", "email"]
    list_filter = ["agency"]
    search_fields = ["name", "email", "mailing_address"]
    list_select_related = ["agency"]


@admin.register(Parcel)
class ParcelAdmin(RecordAdmin):
    list_display = ["apn", "address", "owner", "multi_tenant", "agency"]
    list_filter = ["agency", "multi_tenant"]
    search_fields = ["apn", "address", "owner__name"]
    list_select_related = ["agency", "owner"]
    autocomplete_fields = ["owner"]


@admin.register(SewerSegment)
class SewerSegmentAdmin(RecordAdmin):
    list_display = ["code", "description", "prone_to_blockage", "cleaning_frequency_days", "agency"]
    list_filter = ["agency", "prone_to_blockage"]
    search_fields = ["code", "description"]
    list_select_related = ["agency"]


@admin.register(Operator)
class OperatorAdmin(RecordAdmin):
    list_display = ["name", "phone", "email", "agency"]
    list_filter = ["agency"]
    search_fields = ["name", "email", "phone"]
    list_select_related = ["agency"]


class TenureInline(RecordInline):
    model = OperatorTenure
    fields = ["operator", "since", "until"]
    autocomplete_fields = ["operator"]


class DeviceInline(RecordInline):
    model = GreaseControlDevice
    fields = ["code", "kind", "installed_on", "removed_on", "capacity_gallons", "location"]


class LateralInline(RecordInline):
    model = Lateral
    fields = ["segment", "description", "last_inspected_on"]
    autocomplete_fields = ["segment"]


@admin.register(FoodServiceEstablishment)
class FoodServiceEstablishmentAdmin(RecordAdmin):
    list_display = ["code", "name", "address", "category", "opened_on", "closed_on", "agency"]
    list_filter = [
        "agency",
        "category",
        "on_public_sewer",
        "food_grinder",
        ("closed_on", admin.EmptyFieldListFilter),
    ]
    search_fields = ["code", "name", "address", "normalised_address", "tenures__operator__name"]
    list_select_related = ["agency"]
    readonly_fields = ["normalised_address"]
    autocomplete_fields = ["parcel"]
    date_hierarchy = "opened_on"
    inlines = [TenureInline, DeviceInline, LateralInline]


@admin.register(OperatorTenure)
class OperatorTenureAdmin(RecordAdmin):
    list_display = ["establishment", "operator", "since", "until"]
    list_filter = ["establishment__agency", ("until", admin.EmptyFieldListFilter)]
    search_fields = ["establishment__code", "establishment__name", "operator__name"]
    list_select_related = ["establishment", "operator"]
    autocomplete_fields = ["establishment", "operator"]


@admin.register(OperationChange)
class OperationChangeAdmin(RecordAdmin):
    list_display = ["establishment", "kind", "date", "notified_on"]
    list_filter = ["establishment__agency", "kind"]
    search_fields = ["establishment__code", "establishment__name", "description"]
    list_select_related = ["establishment"]
    autocomplete_fields = ["establishment"]
    date_hierarchy = "date"


@admin.register(Lateral)
class LateralAdmin(RecordAdmin):
    list_display = ["establishment", "segment", "description", "last_inspected_on"]
    list_filter = ["establishment__agency"]
    search_fields = ["establishment__code", "establishment__name", "segment__code", "description"]
    list_select_related = ["establishment", "segment"]
    autocomplete_fields = ["establishment", "segment"]


@admin.register(Hauler)
class HaulerAdmin(RecordAdmin):
    list_display = ["code", "name", "licence_number", "licence_expires_on", "licensed", "agency"]
    list_filter = ["agency", "licensed"]
    search_fields = ["code", "name", "licence_number"]
    list_select_related = ["agency"]


@admin.register(ServiceContract)
class ServiceContractAdmin(RecordAdmin):
    list_display = ["establishment", "hauler", "since", "until"]
    list_filter = ["establishment__agency", ("until", admin.EmptyFieldListFilter)]
    search_fields = ["establishment__code", "establishment__name", "hauler__name"]
    list_select_related = ["establishment", "hauler"]
    autocomplete_fields = ["establishment", "hauler"]


@admin.register(GreaseControlDevice)
class GreaseControlDeviceAdmin(RecordAdmin):
    list_display = [
        "code",
        "establishment",
        "kind",
        "capacity_gallons",
        "installed_on",
        "removed_on",
        "service_frequency_days",
    ]
    list_filter = ["establishment__agency", "kind", ("removed_on", admin.EmptyFieldListFilter)]
    search_fields = ["code", "establishment__code", "establishment__name", "location"]
    list_select_related = ["establishment"]
    autocomplete_fields = ["establishment"]


@admin.register(ApprovedException)
class ApprovedExceptionAdmin(RecordAdmin):
    list_display = ["device", "field", "approved_on", "approved_by", "reference"]
    list_filter = ["device__establishment__agency", "field"]
    search_fields = ["device__code", "device__establishment__name", "reference"]
    list_select_related = ["device__establishment"]
    autocomplete_fields = ["device"]


@admin.register(IntervalApproval)
class IntervalApprovalAdmin(RecordAdmin):
    list_display = ["device", "days", "approved_on", "approved_by", "reference", "ends_on"]
    list_filter = ["device__establishment__agency"]
    search_fields = ["device__code", "device__establishment__name", "reference", "approved_by"]
    list_select_related = ["device__establishment"]
    autocomplete_fields = ["device"]

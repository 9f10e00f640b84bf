"""The audit trail, read-only: nobody adds, changes or deletes an audit row here. Its
read-only admin is the base of every app's admin of records kept as written."""

from django.contrib import admin

from .models import AuditEvent


class ReadOnly:
    """Shown, never added, changed or deleted here (a model admin or an inline)."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    pass


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ["at", "action", "object_type", "object_id", "actor", "agency", "reason"]
    list_filter = ["agency", "object_type", "action"]
    search_fields = ["action", "object_type", "object_id", "reason"]
    list_select_related = ["actor", "agency"]
    date_hierarchy = "at"
    readonly_fields = [f.name for f in AuditEvent._meta.fields]
    actions = None

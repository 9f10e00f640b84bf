"""The audit trail, read-only: nobody adds, changes or deletes an audit row here."""

from django.contrib import admin

from fogkeeper.registry.admin import ReadOnlyAdmin

from .models import AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ["at", "action", "object_type", "object_id", "actor", "agency", "reason"]
    list_filter = ["agency", "object_type", "action"]
    search_fields = ["action", "object_type", "object_id", "reason"]
    list_select_related = ["actor", "agency"]
    date_hierarchy = "at"
    readonly_fields = [f.name for f in AuditEvent._meta.fields]
    actions = None

from django.contrib import admin

from .models import OverdueReminder, ReminderSent


class ReadOnlyAdmin(admin.ModelAdmin):
    """A log the reminder run keeps: read in the admin, never written there."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(ReminderSent)
class ReminderSentAdmin(ReadOnlyAdmin):
    list_display = ("establishment", "obligation", "subject", "due", "sent_on", "email")
    list_filter = ("obligation", "establishment__agency")
    search_fields = ("establishment__code", "establishment__name", "email")
    list_select_related = ("establishment",)
    date_hierarchy = "sent_on"


@admin.register(OverdueReminder)
class OverdueReminderAdmin(ReadOnlyAdmin):
    list_display = ("establishment", "obligation", "subject", "due", "last_sent_on", "times")
    list_filter = ("obligation", "establishment__agency")
    search_fields = ("establishment__code", "establishment__name", "email")
    list_select_related = ("establishment",)

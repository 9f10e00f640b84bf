from django.contrib import admin

from .models import Membership


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "agency", "role", "operator", "hauler", "owner"]
    list_filter = ["agency", "role"]
    search_fields = ["user__username", "agency__name"]
    list_select_related = ["user", "agency", "operator", "hauler", "owner"]
    autocomplete_fields = ["operator", "hauler", "owner"]

from django.contrib import admin

from .models import Membership


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "agency", "role"]
    list_filter = ["agency", "role"]
    search_fields = ["user__username", "agency__name"]

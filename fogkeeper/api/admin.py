"""API tokens in the admin, in place of rest_framework's own admin, which lists the keys."""

from django.contrib import admin
from rest_framework.authtoken.admin import TokenAdmin
from rest_framework.authtoken.models import TokenProxy

from fogkeeper.audit.access import token_shown

from .models import ApiToken

admin.site.unregister(TokenProxy)


@admin.register(ApiToken)
class ApiTokenAdmin(TokenAdmin):
    """Issued for a person (the key is made, never typed or shown), deleted to revoke it."""

    list_display = ["key_shown", "user", "created"]
    fields = ["user"]

    def get_readonly_fields(self, request, obj=None):
        return ["user", "key_shown", "created"] if obj is not None else []

    def get_fields(self, request, obj=None):
        return ["user", "key_shown", "created"] if obj is not None else ["user"]

    @admin.display(description="key")
    def key_shown(self, obj) -> str:
        return token_shown(obj.key)

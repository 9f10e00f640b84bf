"""Enforcement records, for reading: they are taken through the services (which check the
ordinance and write the audit row) and are never edited or deleted."""

from django.contrib import admin
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path

from fogkeeper.audit.admin import ReadOnlyAdmin

from .models import (
    ActionFact,
    CaseViolation,
    EnforcementAction,
    EnforcementCase,
    Letter,
    NoticeAnswer,
)


class ViolationInline(admin.TabularInline):
    model = CaseViolation
    extra = 0
    can_delete = False
    fields = ("code", "rule", "subject", "since", "citation")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


class ActionInline(admin.TabularInline):
    model = EnforcementAction
    fk_name = "case"
    extra = 0
    can_delete = False
    fields = ("code", "type", "level", "taken_on", "delivery", "certified_mail_number", "cites")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(EnforcementCase)
class EnforcementCaseAdmin(ReadOnlyAdmin):
    list_display = ("code", "establishment", "opened_on")
    list_filter = ("establishment__agency",)
    search_fields = ("code", "establishment__code", "establishment__name")
    list_select_related = ("establishment",)
    inlines = [ViolationInline, ActionInline]


class FactInline(admin.TabularInline):
    model = ActionFact
    extra = 0
    can_delete = False
    fields = ("field", "value", "recorded_by", "recorded_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


class AnswerInline(admin.TabularInline):
    model = NoticeAnswer
    extra = 0
    can_delete = False
    fields = ("answered_on", "answered_by", "text", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(EnforcementAction)
class EnforcementActionAdmin(ReadOnlyAdmin):
    list_display = ("code", "type", "level", "establishment", "taken_on", "delivery", "cites")
    list_filter = ("type", "level", "establishment__agency")
    search_fields = ("code", "establishment__code", "certified_mail_number")
    date_hierarchy = "taken_on"
    list_select_related = ("establishment",)
    inlines = [FactInline, AnswerInline]


@admin.register(Letter)
class LetterAdmin(ReadOnlyAdmin):
    list_display = ("action", "sha256", "created_at")
    list_select_related = ("action",)
    exclude = ("pdf",)

    def get_urls(self):
        view = self.admin_site.admin_view(self.download)
        return [path("<int:pk>/pdf/", view, name="enforcement_letter_pdf"), *super().get_urls()]

    def download(self, request, pk: int) -> HttpResponse:
        """The letter exactly as it was sent."""
        letter = get_object_or_404(Letter, pk=pk)
        response = HttpResponse(bytes(letter.pdf), content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="{letter.action.code}.pdf"'
        return response

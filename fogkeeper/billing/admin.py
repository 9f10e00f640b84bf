"""Money is written through the services (fee_schedule_set, invoice_issue, payment_record),
which validate and audit; the admin shows it and never edits or deletes it."""

from django.contrib import admin

from fogkeeper.audit import admin as audit_admin

from .models import FeeItem, FeeSchedule, Invoice, InvoiceLine, Payment


class ReadOnlyAdmin(audit_admin.ReadOnlyAdmin):
    list_per_page = 50


class ReadOnlyInline(audit_admin.ReadOnly, admin.TabularInline):
    extra = 0


class FeeItemInline(ReadOnlyInline):
    model = FeeItem


@admin.register(FeeSchedule)
class FeeScheduleAdmin(ReadOnlyAdmin):
    list_display = ["agency", "effective_on", "resolution"]
    list_filter = ["agency"]
    inlines = [FeeItemInline]


class InvoiceLineInline(ReadOnlyInline):
    model = InvoiceLine


class PaymentInline(ReadOnlyInline):
    model = Payment


@admin.register(Invoice)
class InvoiceAdmin(ReadOnlyAdmin):
    list_display = ["code", "kind", "noticed_on", "establishment", "agency"]
    list_filter = ["agency", "kind"]
    search_fields = ["code", "establishment__name", "establishment__code", "enforcement_action"]
    list_select_related = ["agency", "establishment"]
    date_hierarchy = "noticed_on"
    inlines = [InvoiceLineInline, PaymentInline]


@admin.register(Payment)
class PaymentAdmin(ReadOnlyAdmin):
    list_display = ["invoice", "paid_on", "amount", "method", "reference"]
    list_filter = ["method", "invoice__agency"]
    search_fields = ["invoice__code", "reference"]
    list_select_related = ["invoice"]
    date_hierarchy = "paid_on"

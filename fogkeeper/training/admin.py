from django.contrib import admin

from fogkeeper.registry.admin import RecordAdmin, RecordInline

from .models import Attendance, Employee, Training


@admin.register(Employee)
class EmployeeAdmin(RecordAdmin):
    list_display = ["name", "code", "establishment", "hired_on", "left_on", "kitchen_duties"]
    list_filter = [
        "establishment__agency",
        "kitchen_duties",
        "contractor",
        ("left_on", admin.EmptyFieldListFilter),
    ]
    search_fields = ["name", "code", "establishment__code", "establishment__name"]
    list_select_related = ["establishment"]
    autocomplete_fields = ["establishment"]


class AttendanceInline(RecordInline):
    model = Attendance
    fields = ["employee", "signed"]
    autocomplete_fields = ["employee"]


@admin.register(Training)
class TrainingAdmin(RecordAdmin):
    list_display = ["code", "date", "topic", "trainer", "establishment"]
    list_filter = ["establishment__agency"]
    search_fields = ["code", "topic", "trainer", "establishment__code", "establishment__name"]
    list_select_related = ["establishment"]
    autocomplete_fields = ["establishment"]
    date_hierarchy = "date"
    inlines = [AttendanceInline]


@admin.register(Attendance)
class AttendanceAdmin(RecordAdmin):
    list_display = ["employee", "training", "signed"]
    list_filter = ["training__establishment__agency", "signed"]
    search_fields = ["employee__name", "training__code", "training__establishment__name"]
    list_select_related = ["employee", "training"]
    autocomplete_fields = ["employee", "training"]

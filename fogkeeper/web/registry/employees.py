"""The staff pages of an establishment's employees: the roster (current and former), hiring
one, changing their name or kitchen duties (who has kitchen duties must be trained), and
recording that one left. Whoever records trainings keeps the roster ("employee")."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, render

from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.training.models import Employee
from fogkeeper.training.services import employee_hire, employee_leave, employee_update

from ..common.forms import put_errors
from ..common.pages import agency_page, page_as_of, reads_only, record_page
from .equipment import child_page, evaluated, form_page, may, today
from .equipment_forms import EmployeeEditForm, EmployeeHireForm, EmployeeLeaveForm


@agency_page
@reads_only
def employee_list(request, code: str):
    """The establishment's employees on the page's day, and those who had left by then."""
    fse = get_object_or_404(FoodServiceEstablishment, agency=request.agency, code=code)
    on = page_as_of(request)
    employees = list(Employee.objects.filter(establishment=fse, hired_on__lte=on).order_by("name"))
    context = {
        "fse": fse,
        "on": on,
        "may": may(request, "employee"),
        "current": [e for e in employees if e.left_on is None or e.left_on > on],
        "former": [e for e in employees if e.left_on is not None and e.left_on <= on],
    }
    return render(request, "web/registry/employee_list.html", context)


def _to_roster(request, fse, message: str):
    return evaluated(request, fse, message=message, to="web:employees", code=fse.code)


@record_page("employee")
def employee_new(request, fse):
    form = EmployeeHireForm(request.POST or None)
    if form.is_valid():
        try:
            employee = employee_hire(
                establishment=fse, **form.cleaned_data, today=today(), actor=request.user
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _to_roster(request, fse, f"{employee.name} was added to the roster.")
    context = {"fse": fse, "form": form, "title": "Hire an employee"}
    return form_page(request, "employee_form.html", context)


@child_page(Employee, "employee", "employee")
def employee_edit(request, fse, employee):
    fields = ("name", "kitchen_duties", "contractor")
    initial = {f: getattr(employee, f) for f in fields}
    form = EmployeeEditForm(request.POST or None, initial=initial)
    if form.is_valid():
        try:
            employee_update(employee=employee, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _to_roster(request, fse, f"The record of {employee.name} was saved.")
    context = {
        "fse": fse,
        "form": form,
        "title": f"Change {employee.name}'s record",
        "employee": employee,
    }
    return form_page(request, "employee_form.html", context)


@child_page(Employee, "employee", "employee")
def employee_leave_page(request, fse, employee):
    form = EmployeeLeaveForm(request.POST or None)
    if form.is_valid():
        data = form.cleaned_data
        try:
            employee_leave(
                employee=employee,
                left_on=data["left_on"],
                today=today(),
                actor=request.user,
                reason=data["reason"],
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _to_roster(request, fse, f"{employee.name} was recorded as having left.")
    context = {
        "fse": fse,
        "form": form,
        "title": f"Record that {employee.name} left",
        "employee": employee,
    }
    return form_page(request, "employee_form.html", context)

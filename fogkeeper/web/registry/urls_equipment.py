"""URLs of the registry pages in `equipment`: devices and food grinders, haulers and their
service contracts, employees."""

from django.urls import path

from . import devices, employees, haulers

DEVICE = "establishments/<str:code>/devices/<int:device>/"
EMPLOYEE = "establishments/<str:code>/employees/<int:employee>/"

urlpatterns: list = [
    path("establishments/<str:code>/devices/new/", devices.device_install, name="device_install"),
    path(DEVICE, devices.device_detail, name="device"),
    path(f"{DEVICE}edit/", devices.device_edit, name="device_edit"),
    path(f"{DEVICE}replace/", devices.device_replace_page, name="device_replace"),
    path(f"{DEVICE}remove/", devices.device_remove, name="device_remove"),
    path(f"{DEVICE}frequency/", devices.device_frequency, name="device_frequency"),
    path(f"{DEVICE}exception/", devices.device_exception, name="device_exception"),
    path("establishments/<str:code>/food-grinder/", devices.food_grinder, name="food_grinder"),
    path("registry/haulers/", haulers.hauler_list, name="haulers"),
    path("registry/haulers/new/", haulers.hauler_register, name="hauler_register"),
    path("registry/haulers/<str:hauler>/", haulers.hauler_detail, name="hauler"),
    path("registry/haulers/<str:hauler>/edit/", haulers.hauler_edit, name="hauler_edit"),
    path(
        "registry/haulers/<str:hauler>/contracts/new/",
        haulers.hauler_contract_start,
        name="hauler_contract_start",
    ),
    path("establishments/<str:code>/contracts/new/", haulers.contract_new, name="contract_new"),
    path(
        "establishments/<str:code>/contracts/<int:contract>/end/",
        haulers.contract_end_page,
        name="contract_end",
    ),
    path("establishments/<str:code>/employees/", employees.employee_list, name="employees"),
    path("establishments/<str:code>/employees/new/", employees.employee_new, name="employee_hire"),
    path(f"{EMPLOYEE}edit/", employees.employee_edit, name="employee_edit"),
    path(f"{EMPLOYEE}leave/", employees.employee_leave_page, name="employee_leave"),
]

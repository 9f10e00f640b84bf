"""URLs of the registry pages: the establishments (list and page), the sites around them
(`sites`, `operators`, `places`, `segments`, and a sewer segment's page in `sewers`), and their
equipment and people (`devices`, `haulers`, `employees`)."""

from django.urls import path

from . import (
    devices,
    employees,
    establishments,
    haulers,
    operators,
    places,
    segments,
    sewers,
    sites,
)

FSE = "establishments/<str:code>"
DEVICE = "establishments/<str:code>/devices/<int:device>/"
EMPLOYEE = "establishments/<str:code>/employees/<int:employee>/"

urlpatterns: list = [
    path("establishments/", establishments.establishment_list, name="establishments"),
    path(f"{FSE}/", establishments.establishment_detail, name="establishment"),
    path("registry/", sites.registry_index, name="registry"),
    path("registry/establishments/new/", sites.establishment_new, name="establishment_new"),
    path(f"{FSE}/edit/", sites.establishment_edit, name="establishment_edit"),
    path(f"{FSE}/close/", sites.establishment_close_page, name="establishment_close"),
    path(f"{FSE}/reopen/", sites.establishment_reopen_page, name="establishment_reopen"),
    path(f"{FSE}/changes/new/", sites.operation_change_new, name="operation_change_new"),
    path(f"{FSE}/laterals/new/", places.lateral_new, name="lateral_new"),
    path(f"{FSE}/laterals/<int:lateral>/", places.lateral_edit, name="lateral_edit"),
    path(
        f"{FSE}/laterals/<int:lateral>/remove/", places.lateral_remove_page, name="lateral_remove"
    ),
    path("registry/operators/", operators.operator_list, name="operators"),
    path("registry/operators/new/", operators.operator_new, name="operator_new"),
    path("registry/operators/<int:operator>/", operators.operator_detail, name="operator"),
    path("registry/operators/<int:operator>/edit/", operators.operator_edit, name="operator_edit"),
    path("registry/owners/", places.owner_list, name="owners"),
    path("registry/owners/new/", places.owner_new, name="owner_new"),
    path("registry/owners/<int:owner>/edit/", places.owner_edit, name="owner_edit"),
    path("registry/parcels/", places.parcel_list, name="parcels"),
    path("registry/parcels/new/", places.parcel_new, name="parcel_new"),
    path("registry/parcels/<int:parcel>/edit/", places.parcel_edit, name="parcel_edit"),
    path("registry/segments/", segments.segment_list, name="segments"),
    path("registry/segments/new/", segments.segment_new, name="segment_new"),
    path("registry/segments/<int:segment>/edit/", segments.segment_edit, name="segment_edit"),
    path("registry/segments/<int:segment>/", sewers.segment_detail, name="segment"),
    path(
        "registry/segments/<int:segment>/cleanings/new/",
        sewers.segment_cleaning_new,
        name="segment_cleaning_new",
    ),
    path("establishments/<str:code>/devices/new/", devices.device_install, name="device_install"),
    path(DEVICE, devices.device_detail, name="device"),
    path(f"{DEVICE}edit/", devices.device_edit, name="device_edit"),
    path(f"{DEVICE}replace/", devices.device_replace_page, name="device_replace"),
    path(f"{DEVICE}remove/", devices.device_remove, name="device_remove"),
    path(f"{DEVICE}frequency/", devices.device_frequency, name="device_frequency"),
    path(f"{DEVICE}sizing/", devices.device_sizing, name="device_sizing"),
    path(f"{DEVICE}exception/", devices.device_exception, name="device_exception"),
    path(
        f"{DEVICE}interval-approval/",
        devices.device_interval_approval,
        name="device_interval_approval",
    ),
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

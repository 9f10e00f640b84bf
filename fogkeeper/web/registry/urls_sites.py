"""URLs of the registry pages in `sites`, `operators`, `places` and `segments`."""

from django.urls import path

from . import operators, places, segments, sites

FSE = "establishments/<str:code>"

urlpatterns: list = [
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
]

"""URLs of the field inspections: the field list, the field app that works offline (its page,
route, sync, manifest and service worker, all under /inspections/field/, the worker's scope),
and an inspection's page with its receipt."""

from django.urls import path

from . import app, inspection, sync, views

urlpatterns = [
    path("inspections/field/", views.field_page, name="field"),
    path("inspections/field/offline/", app.offline_page, name="field_offline"),
    path("inspections/field/route.json", app.route_json, name="field_route"),
    path("inspections/field/sync/", sync.sync, name="field_sync"),
    path("inspections/field/manifest.webmanifest", app.manifest, name="field_manifest"),
    path("inspections/field/sw.js", app.service_worker, name="field_worker"),
    path("inspections/<int:pk>/", inspection.inspection_page, name="inspection"),
    path(
        "inspections/<int:pk>/receipt.pdf", inspection.inspection_receipt, name="inspection_receipt"
    ),
]

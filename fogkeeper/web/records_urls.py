"""URLs of the lists of inspections, pump-outs and trainings (fogkeeper/web/records.py)."""

from django.urls import path

from . import records

urlpatterns = [
    path("inspections/", records.inspection_list, name="inspections"),
    path("pump-outs/", records.service_list, name="services"),
    path("trainings/", records.training_list, name="trainings"),
]

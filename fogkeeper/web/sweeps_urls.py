"""URLs of the sweep runs (fogkeeper/web/sweeps.py)."""

from django.urls import path

from . import sweeps

urlpatterns: list = [
    path("sweeps/", sweeps.sweep_list, name="sweep_list"),
    path("sweeps/start/", sweeps.sweep_start, name="sweep_start"),
    path("sweeps/<int:pk>/", sweeps.sweep_detail, name="sweep_detail"),
]

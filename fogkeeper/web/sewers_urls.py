"""URLs of the sewer segment pages (fogkeeper/web/sewers.py)."""

from django.urls import path

from . import sewers

urlpatterns: list = [
    path("registry/segments/<int:segment>/", sewers.segment_detail, name="segment"),
    path(
        "registry/segments/<int:segment>/cleanings/new/",
        sewers.segment_cleaning_new,
        name="segment_cleaning_new",
    ),
]

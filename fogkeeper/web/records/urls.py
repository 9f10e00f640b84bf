"""URLs of the records pages: recording a pump-out, an inspection, a sample, a training, a
change of operator or a waste cooking oil pickup on an establishment's page, disputing a
pump-out, an inspection's photos, and the lists of inspections, pump-outs and trainings."""

from django.urls import path

from . import disputes, lists, photos, receipts, samples, views

RECORD = "establishments/<str:code>/record"

urlpatterns: list = [
    path(f"{RECORD}/service/", views.record_service, name="record_service"),
    path(f"{RECORD}/inspection/", views.record_inspection, name="record_inspection"),
    path(f"{RECORD}/sample/", samples.record_sample, name="record_sample"),
    path(f"{RECORD}/training/", views.record_training, name="record_training"),
    path(f"{RECORD}/operator-change/", views.record_operator_change, name="record_operator_change"),
    path(f"{RECORD}/yellow-grease/", receipts.record_yellow_grease, name="record_yellow_grease"),
    path(
        "establishments/<str:code>/services/<int:pk>/dispute/",
        disputes.service_dispute_page,
        name="service_dispute",
    ),
    path("photos/<int:photo>/", photos.photo, name="photo"),
    path("photos/<int:photo>/thumbnail.jpg", photos.thumbnail, name="photo_thumbnail"),
    path("inspections/", lists.inspection_list, name="inspections"),
    path("pump-outs/", lists.service_list, name="services"),
    path("trainings/", lists.training_list, name="trainings"),
]

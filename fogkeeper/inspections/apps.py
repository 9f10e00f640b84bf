from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "fogkeeper.inspections"
    verbose_name = "Inspections"

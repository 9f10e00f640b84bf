from django.apps import AppConfig


class IncidentsConfig(AppConfig):
    name = "fogkeeper.incidents"
    verbose_name = "Incidents"

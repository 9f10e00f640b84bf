from django.apps import AppConfig


class MaintenanceConfig(AppConfig):
    name = "fogkeeper.maintenance"
    verbose_name = "Maintenance records"

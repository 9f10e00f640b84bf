from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "fogkeeper.permits"
    verbose_name = "Permits"

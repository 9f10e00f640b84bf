from django.apps import AppConfig


class SewersConfig(AppConfig):
    name = "fogkeeper.sewers"
    verbose_name = "Sewer cleaning"

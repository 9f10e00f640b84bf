from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "fogkeeper.api"
    label = "api"
    verbose_name = "REST API"

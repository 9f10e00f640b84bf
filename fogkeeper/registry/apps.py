from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "fogkeeper.registry"
    verbose_name = "Registry of establishments"

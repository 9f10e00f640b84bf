from django.apps import AppConfig


class DemoConfig(AppConfig):
    """An app so that `manage.py demo` is found here, beside the programs it loads; it has no
    models."""

    name = "fogkeeper.demo"
    verbose_name = "Demo programs"

from django.apps import AppConfig, apps
from django.db.models.signals import post_migrate


class SecurityConfig(AppConfig):
    name = "fogkeeper.security"
    verbose_name = "protection"

    def ready(self) -> None:
        from . import login  # noqa: F401  (connects the sign-in signal receivers)
        from .caches import create_cache_table

        # post_migrate is sent per app with models (this one has none): once, after auth's.
        post_migrate.connect(create_cache_table, sender=apps.get_app_config("auth"))

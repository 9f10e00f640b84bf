from django.apps import AppConfig


class SecurityConfig(AppConfig):
    name = "fogkeeper.security"
    verbose_name = "protection"

    def ready(self) -> None:
        from . import login  # noqa: F401  (connects the sign-in signal receivers)

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "fogkeeper.web"
    label = "web"
    verbose_name = "Staff pages"

    def ready(self) -> None:
        from fogkeeper import signals

        from .people.demo import people_for_demo

        signals.demo_loaded.connect(people_for_demo, dispatch_uid="web")

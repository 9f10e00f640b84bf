from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "fogkeeper.web"
    label = "web"
    verbose_name = "Staff pages"

    def ready(self) -> None:
        from fogkeeper import upcalls

        from .people.demo import people_for_demo

        upcalls.provide("demo_people", people_for_demo)

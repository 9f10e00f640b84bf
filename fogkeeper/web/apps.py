from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "fogkeeper.web"
    label = "web"
    verbose_name = "Staff pages"

from django.apps import AppConfig


class CommunicationsConfig(AppConfig):
    name = "fogkeeper.communications"
    verbose_name = "Communications"

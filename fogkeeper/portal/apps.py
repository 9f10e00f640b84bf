from django.apps import AppConfig


class PortalConfig(AppConfig):
    name = "fogkeeper.portal"
    label = "portal"
    verbose_name = "Portals for operators, haulers and property owners"

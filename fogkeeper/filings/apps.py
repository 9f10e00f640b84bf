from django.apps import AppConfig


class FilingsConfig(AppConfig):
    name = "fogkeeper.filings"
    verbose_name = "Requests filed by operators"

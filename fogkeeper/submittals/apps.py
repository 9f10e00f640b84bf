from django.apps import AppConfig


class SubmittalsConfig(AppConfig):
    name = "fogkeeper.submittals"
    verbose_name = "Required reports"

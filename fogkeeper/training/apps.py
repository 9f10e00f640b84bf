from django.apps import AppConfig


class TrainingConfig(AppConfig):
    name = "fogkeeper.training"
    verbose_name = "BMP training"

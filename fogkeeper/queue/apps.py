from django.apps import AppConfig


class QueueConfig(AppConfig):
    name = "fogkeeper.queue"
    label = "queue"
    verbose_name = "Work waiting for the workers"

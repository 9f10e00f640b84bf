"""The Celery application: its settings are Django's CELERY_* (settings.py); each app's
tasks.py is found by autodiscovery. `celery -A fogkeeper worker` finds it through
fogkeeper/celery.py."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogkeeper.config.settings")

app = Celery("fogkeeper")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

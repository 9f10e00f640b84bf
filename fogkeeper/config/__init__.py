# Loaded with Django, so that the tasks' @shared_task bind to fogkeeper's Celery application.
from .celery import app as celery_app

__all__ = ["celery_app"]

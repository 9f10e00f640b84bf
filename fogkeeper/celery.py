"""For `celery -A fogkeeper ...`: the application lives in fogkeeper/config/celery.py."""

from fogkeeper.config.celery import app

__all__ = ["app"]

"""DRF throttling with the rates of settings.FOGKEEPER_API_RATES, read at each request (so a
deployment, or a test, sets them with settings alone)."""

from __future__ import annotations

from django.conf import settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


class AnonThrottle(AnonRateThrottle):
    def get_rate(self):
        return settings.FOGKEEPER_API_RATES.get(self.scope or "")


class UserThrottle(UserRateThrottle):
    def get_rate(self):
        return settings.FOGKEEPER_API_RATES.get(self.scope or "")

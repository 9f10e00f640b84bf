"""Fixtures of every test."""

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _empty_cache():
    """Sign-in failures and API request counts live in the cache: each test starts with none."""
    cache.clear()
    yield
    cache.clear()

"""Fixtures of every test."""

import pytest
from django.core.cache import cache
from django.db import connection

# The fixtures that give a test the database (the django_db marker gives it too), and the
# one to ask for first: the live server's tests have theirs from transactional_db.
DATABASE_FIXTURES = {
    "db": "db",
    "transactional_db": "transactional_db",
    "live_server": "transactional_db",
}


@pytest.fixture(autouse=True)
def _empty_cache(request):
    """Sign-in failures and API request counts live in the cache (the database's table): each
    test with the database starts with none, and leaves none to the next."""
    marker = request.node.get_closest_marker("django_db")
    needs = [DATABASE_FIXTURES[n] for n in DATABASE_FIXTURES if n in request.fixturenames]
    if marker is None and not needs:
        yield
        return
    request.getfixturevalue("_django_db_helper" if marker is not None else needs[0])
    cache.clear()
    yield
    if not connection.needs_rollback:  # a test that ends on a refused write: rolled back anyway
        cache.clear()

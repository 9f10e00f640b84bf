"""The cache every server process shares. Sign-in failures (fogkeeper.security.login) and the
API's request counts (fogkeeper.api.throttles) live in it, so a cache of one process's own
(locmem, dummy, or files on one machine) would let each gunicorn worker count apart: lockout
after five failures per worker, API rates multiplied by the number of workers. Production
settings therefore refuse one, and the default is the database's own cache table, created
after every `migrate`, whose counts are taken in one step (fogkeeper.security.counts)."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

PER_PROCESS = {
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
    "django.core.cache.backends.filebased.FileBasedCache",
}


def require_shared(caches: dict, *, debug: bool) -> None:
    """Raise ImproperlyConfigured, at settings load, for a per-process cache outside DEBUG."""
    backend = caches["default"]["BACKEND"]
    if not debug and backend in PER_PROCESS:
        raise ImproperlyConfigured(
            f"FOGKEEPER_CACHE_URL gives a cache of one process only ({backend}): sign-in "
            f"lockouts and API rates would be counted apart by each server process. Use a "
            f"cache they share: dbcache://fogkeeper_cache (the default; `manage.py migrate` "
            f"creates its table) or redis://HOST:6379/1."
        )


def atomic_counts(caches: dict) -> dict:
    """`caches` with Django's database cache swapped for the one whose counts are atomic."""
    default = caches["default"]
    if default["BACKEND"] == "django.core.cache.backends.db.DatabaseCache":
        default = {**default, "BACKEND": "fogkeeper.security.counts.AtomicDatabaseCache"}
    return {**caches, "default": default}


def create_cache_table(using: str = "default", **kwargs) -> None:
    """post_migrate: whatever migrates (make run, the tests, the benchmarks, a deployment)
    also has the database cache's table; createcachetable skips a table already there and
    does nothing for other caches."""
    from django.core.management import call_command

    call_command("createcachetable", database=using, verbosity=0)

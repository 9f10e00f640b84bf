"""Counts kept in the shared cache (fogkeeper.security.caches) and taken in one step: the
sign-in throttle's failures, the enrolment form's requests per address.

Django's database cache adds to a count by reading it and writing it back (with a fresh
expiry), so guesses at one password sent at once all read the same count and all went on to
have the password checked (issue 37, item 12). AtomicDatabaseCache, the database's cache as
the settings configure it, holds the row's lock between the read and the write instead;
Redis's own increment is atomic already."""

from __future__ import annotations

import base64
import contextlib
import pickle

from django.core.cache import cache
from django.core.cache.backends.db import DatabaseCache
from django.db import connections, router, transaction
from django.utils.timezone import now


class AtomicDatabaseCache(DatabaseCache):
    """The database's cache, whose `incr` and `decr` hold the row's lock from reading the count
    to writing it, and keep the count's expiry."""

    def incr(self, key, delta=1, version=None):
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        q = connection.ops.quote_name
        table = self._table  # type: ignore[attr-defined]  # DatabaseCache sets it; its stub does not
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        live = connection.ops.adapt_datetimefield_value(now().replace(microsecond=0))
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {q('value')} FROM {q(table)} "
                f"WHERE {q('cache_key')} = %s AND {q('expires')} > %s{lock}",
                [key, live],
            )
            row = cursor.fetchone()
            if row is None:
                raise ValueError(f"Key '{key}' not found")
            value = _decoded(connection.ops.process_clob(row[0])) + delta
            cursor.execute(
                f"UPDATE {q(table)} SET {q('value')} = %s WHERE {q('cache_key')} = %s",
                [_encoded(value, self.pickle_protocol), key],
            )
        return value


def _decoded(stored: str):
    return pickle.loads(base64.b64decode(stored.encode()))


def _encoded(value, protocol: int) -> str:
    return base64.b64encode(pickle.dumps(value, protocol)).decode("latin1")


def count(key: str, window: int) -> int:
    """One more in the count at `key`, with the count it makes. A count is forgotten `window`
    seconds after its first."""
    for _ in range(2):  # the second if the window ended between add and incr
        cache.add(key, 0, timeout=window)
        try:
            return cache.incr(key)
        except ValueError:
            continue
    raise RuntimeError(f"the cache keeps no count at {key}")


def uncount(key: str) -> None:
    """One less in the count at `key`, for what turned out not to count, if it is still kept."""
    with contextlib.suppress(ValueError):
        cache.decr(key)

"""Row locks for a check-then-write: inside a transaction, a writer that holds a row's lock
may look for what it is about to store, knowing no other writer holding the same lock can
store it meanwhile. The lock is FOR NO KEY UPDATE: rows referring to the locked one may
still be added, and readers are never blocked."""

from __future__ import annotations

from django.db import models


def hold_row(obj: models.Model) -> None:
    """Lock `obj`'s row until the transaction ends."""
    manager = type(obj)._base_manager
    list(manager.select_for_update(no_key=True).filter(pk=obj.pk).values("pk"))

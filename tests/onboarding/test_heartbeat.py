"""The heartbeat of an onboarding's worker (issue 37, item 13): stored on a connection of its
own while the import's transaction is open, so the run's page sees it (and the rows read) as
the file is read, and a worker killed stops it."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from django.db import connections, transaction

from fogkeeper.onboarding.models import Onboarding
from fogkeeper.onboarding.runs import Heartbeat
from tests.records import make_agency, make_establishment

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_beat_is_stored_beside_the_open_import_and_not_held_by_it():
    agency = make_agency()
    old = datetime(2026, 6, 30, 12, 0, tzinfo=UTC)
    run = Onboarding.objects.create(
        agency=agency,
        kind="establishments",
        file="f.csv",
        filename="f.csv",
        status=Onboarding.RUNNING,
        started_at=old,
        progress_at=old,
    )
    heart = Heartbeat(run)
    heart.progress(500, 1_000)

    def beat():
        try:
            heart.beat()
        finally:
            connections.close_all()

    with transaction.atomic():  # the import, writing
        make_establishment(agency)
        thread = threading.Thread(target=beat)
        thread.start()
        thread.join(timeout=5)
        assert not thread.is_alive()
        seen = Onboarding.objects.get(pk=run.pk)
        assert (seen.rows_read, seen.rows_total) == (500, 1_000) and seen.progress_at > old
        assert not seen.died()

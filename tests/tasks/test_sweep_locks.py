"""Stores of one establishment take turns (a batch of the sweep and a re-evaluation after a
write): they lock its row from before the load, so the later reads what the earlier stored
and no finding is written twice. Stores of other establishments do not wait."""

from __future__ import annotations

import threading
from datetime import date

import psycopg
import pytest
from django.db import connection

from fogkeeper.compliance.generate import generate_program
from fogkeeper.compliance.models import ComplianceStatus, Finding, ScheduleItem, SweepRun
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.compliance.sweep import SweepResult, sweep_ids
from fogkeeper.registry.models import Agency

from .workers import wait_for

pytestmark = pytest.mark.django_db(transaction=True)
AS_OF = date(2025, 6, 30)
KEY = ("establishment_id", "rule", "subject", "since")


def store(agency: Agency, ids: list[int]) -> None:
    sweep_ids(agency, ids, AS_OF, SweepResult(run=SweepRun(agency=agency, as_of=AS_OF)))


def forget(agency: Agency) -> None:
    for model in (Finding, ScheduleItem):
        model.objects.filter(agency=agency).delete()
    ComplianceStatus.objects.filter(establishment__agency=agency).delete()


def waiting_on_a_lock(watcher) -> int:
    return watcher.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = %s",
        [connection.settings_dict["NAME"]],
    ).fetchone()[0]


@pytest.fixture
def psql():
    """Connections of our own, closed at the end whatever happened (a held lock would stop
    the database's teardown)."""
    s = connection.settings_dict
    where = {"host": s["HOST"], "port": s["PORT"], "user": s["USER"], "dbname": s["NAME"]}
    opened: list[psycopg.Connection] = []

    def connect(**options) -> psycopg.Connection:
        opened.append(psycopg.connect(**where, **options))
        return opened[-1]

    yield connect
    for c in opened:
        c.close()


def test_two_stores_of_one_establishment_take_turns_and_others_go_ahead(psql):
    generate_program(
        establishments=8, years=2, as_of=AS_OF, agency_code="locks", pack="san-clemente", seed=3
    )
    agency = Agency.objects.get(code="locks")
    sweep_agency(agency, as_of=AS_OF, batch_size=4)
    expected = sorted(Finding.objects.filter(agency=agency).values_list(*KEY, "open"))
    held = Finding.objects.filter(agency=agency).values_list("establishment_id", flat=True)[0]
    others = list(
        ComplianceStatus.objects.filter(establishment__agency=agency)
        .exclude(establishment_id=held)
        .values_list("establishment_id", flat=True)
    )
    forget(agency)

    holder = psql()
    watcher = psql(autocommit=True)  # in a transaction it would see one snapshot
    holder.execute(
        "SELECT id FROM registry_foodserviceestablishment WHERE id = %s FOR NO KEY UPDATE", [held]
    )
    store(agency, others)  # not held: stored at once
    assert ComplianceStatus.objects.filter(establishment_id__in=others).count() == len(others)

    failures: list[BaseException] = []

    def store_held():
        try:
            store(agency, [held])
        except BaseException as e:
            failures.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=store_held) for _ in range(2)]
    for t in threads:
        t.start()
    wait_for(
        lambda: waiting_on_a_lock(watcher) == 2, what="both stores to wait for the row", seconds=20
    )
    assert not ComplianceStatus.objects.filter(establishment_id=held).exists()
    holder.rollback()
    for t in threads:
        t.join(timeout=60)

    assert failures == []
    stored = sorted(Finding.objects.filter(agency=agency).values_list(*KEY, "open"))
    assert stored == expected  # each finding once, as one sweep of them all writes them

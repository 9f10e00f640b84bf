"""With the broker down (issue 37 item 5): a page whose write is committed never answers 500
for the work it could not queue. The field sync, an onboarding upload and a communication are
posted while a Redis of the test's own is stopped: each is stored, its page says it waits
for the workers, and once Redis is back the schedule's tick hands the work to it and a real
worker does it."""

from __future__ import annotations

import json
import socket
import subprocess
import time
import uuid
from pathlib import Path

import pytest
import redis as redis_client
from django.core.files.uploadedfile import SimpleUploadedFile

from bench.workers import Worker
from fogkeeper.communications.models import Communication
from fogkeeper.compliance.schedule import tick
from fogkeeper.config.celery import app
from fogkeeper.inspections.models import Inspection, InspectionPhoto
from fogkeeper.inspections.snapshots import establishment_seen, version_of
from fogkeeper.onboarding.models import Onboarding
from fogkeeper.queue import enqueue
from fogkeeper.queue.models import Unsent
from fogkeeper.registry.models import FoodServiceEstablishment
from tests.communications.records import draft, program
from tests.images import png
from tests.records import make_device
from tests.web.people import make_user

from .workers import database_url, wait_for

pytestmark = pytest.mark.django_db(transaction=True)
CSV = (
    "code,name,address,opened_on,operator_name\nFSE-100,Pier Grill,1 Pier Way,2015-03-01,Pier LLC\n"
)
WAITING = "Waiting for the workers"


class OwnRedis:
    """A redis-server on a free loopback port of its own, stopped and started again at will."""

    def __init__(self, folder: Path):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.folder, self.url = folder, f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.folder),
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        ping = redis_client.Redis(port=self.port, socket_connect_timeout=0.5)
        wait_for(lambda: self._answers(ping), what="Redis to start", seconds=10)

    @staticmethod
    def _answers(ping) -> bool:
        try:
            return ping.ping()
        except redis_client.ConnectionError:
            return False

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def _fresh_pools() -> None:
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def broker(settings, tmp_path):
    """The project's Celery application sends to the test's own Redis, as a web process with
    FOGKEEPER_BROKER_URL set does; put back as it was afterwards."""
    redis = OwnRedis(tmp_path)
    redis.start()
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    settings.CELERY_BROKER_URL, settings.CELERY_TASK_ALWAYS_EAGER = redis.url, False
    _fresh_pools()
    app.conf.update(broker_url=redis.url, task_always_eager=False)
    try:
        yield redis
    finally:
        app.conf.update(saved)
        _fresh_pools()
        redis.stop()


@pytest.fixture
def manager(client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.FOGKEEPER_SWEEP_HOUR = settings.FOGKEEPER_REMINDER_HOUR = 24  # the tick's own: none
    sc = program()
    make_device(
        FoodServiceEstablishment.objects.get(code="FSE-1"),
        "GI-1",
        design_depth_inches=48,
        installed_on="2020-01-01",
    )
    user = make_user("mia", sc, role="manager")
    client.force_login(user)
    return sc


def sync(client):
    fse = FoodServiceEstablishment.objects.get(code="FSE-1")
    seen = establishment_seen(fse)
    inspection = {
        "client_id": str(uuid.uuid4()),
        "agency": "san-clemente",
        "establishment": "FSE-1",
        "version": version_of(seen),
        "seen": seen,
        "code": "F-1",
        "date": "2026-06-01",
        "answers": [{"item": "bmp.spill_kit", "compliant": True}],
    }
    return client.post(
        "/inspections/field/sync/", {"inspection": json.dumps(inspection), "photos": png()}
    )


def onboard(client):
    upload = SimpleUploadedFile("program.csv", CSV.encode(), "text/csv")
    return client.post("/onboarding/", {"kind": "establishments", "file": upload}, follow=True)


def communicate(client, sc):
    comm = draft(sc)
    return client.post(f"/communications/{comm.pk}/send/", follow=True), comm


def test_with_the_broker_down_the_pages_store_say_waiting_and_the_tick_queues_the_work(
    client, broker, manager, tmp_path
):
    assert enqueue("fogkeeper.sweep.resume")  # the broker answers, then goes away
    broker.stop()

    started = time.monotonic()
    synced = sync(client)
    onboarded = onboard(client)
    communicated, comm = communicate(client, manager)
    took = time.monotonic() - started

    assert synced.status_code == 201 and synced.json()["status"] == "stored"
    inspection = Inspection.objects.get(code="F-1")
    photo = InspectionPhoto.objects.get(inspection=inspection)
    assert not photo.thumbnail and not inspection.receipt_sent_at
    assert onboarded.status_code == 200
    run = Onboarding.objects.get()
    assert run.status == Onboarding.QUEUED and run.file
    assert f"{WAITING}: they could not be reached" in onboarded.content.decode()
    assert "program.csv was uploaded; its dry run waits for the workers." in (
        onboarded.content.decode()
    )
    assert communicated.status_code == 200
    comm.refresh_from_db()
    assert comm.status == Communication.QUEUED and comm.recipients.count() == comm.total > 0
    assert f"{WAITING}: they could not be reached" in communicated.content.decode()
    assert sorted(Unsent.objects.values_list("task", flat=True)) == [
        "fogkeeper.communications.send",
        "fogkeeper.inspections.receipt",
        "fogkeeper.inspections.thumbnail",
        "fogkeeper.onboarding.run",
    ]
    assert took < 15  # three pages, none held by the broker's absence

    tick()  # the broker still down: the work stays kept
    assert Unsent.objects.exclude(task="fogkeeper.sweep.resume").count() == 4

    broker.start()
    tick()
    assert not Unsent.objects.exists()
    assert "Queued: waiting for a worker" in client.get(f"/onboarding/{run.pk}/").content.decode()

    env = {
        "MEDIA_ROOT": str(tmp_path / "media"),
        "FOGKEEPER_DB_CONN_MAX_AGE": "0",
        "FOGKEEPER_EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
    }
    worker = Worker("down", broker=broker.url, database=database_url(), log_dir=tmp_path, env=env)
    try:
        done = lambda: _all_done(inspection, photo, run, comm)  # noqa: E731
        wait_for(done, what="the work to run", workers=[worker])
    finally:
        worker.stop()


def _all_done(inspection, photo, run: Onboarding, comm: Communication) -> bool:
    for record in (inspection, photo, run, comm):
        record.refresh_from_db()
    done = run.status == comm.status == "complete"
    return done and bool(photo.thumbnail) and inspection.receipt_sent_at is not None

"""A communication sent by a worker (delivery.py): it sends only the recipients still pending,
so the task is safe to run twice and to run again after a worker died."""

from __future__ import annotations

from celery import shared_task

from .delivery import run_communication


@shared_task(name="fogkeeper.communications.send")
def send_communication(communication_id: int) -> str:
    comm = run_communication(communication_id)
    return comm.status if comm else "gone"

"""The onboarding started from its page, as a task (runs.py)."""

from __future__ import annotations

from celery import shared_task

from .runs import carry_out


@shared_task(name="fogkeeper.onboarding.run")
def onboarding_run(run_id: int) -> str:
    run = carry_out(run_id)
    return run.status if run else "gone"

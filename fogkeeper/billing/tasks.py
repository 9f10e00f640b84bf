"""The yearly fee invoices as a task (on the workers when a broker is set, else inline), the
same as `manage.py invoice_annual_fees`. Safe to run twice: an establishment already
invoiced the year's fee is skipped (annual.py)."""

from __future__ import annotations

from datetime import date

from celery import shared_task

from fogkeeper.registry.models import Agency

from .annual import NoAnnualFee, invoice_annual_fees
from .annual_runs import run_annual_fees


@shared_task(name="fogkeeper.billing.annual_fees")
def annual_fees(agency_id: int, year: int, on_iso: str) -> list[str]:
    """Invoice the annual inspection fee of `year`, noticed on `on_iso`, to each active
    establishment of the agency not yet invoiced it; returns what the command prints (or why
    the agency charges no such fee)."""
    agency = Agency.objects.get(pk=agency_id)
    try:
        run = invoice_annual_fees(agency=agency, year=year, on=date.fromisoformat(on_iso))
    except NoAnnualFee as e:
        return [str(e)]
    return run.lines()


@shared_task(name="fogkeeper.billing.annual_fee_run")
def annual_fee_run(run_id: int) -> str:
    """Carry out the AnnualFeeRun `run_id` started from the annual-fees page (annual_runs.py);
    returns its status."""
    run = run_annual_fees(run_id)
    return run.status if run else "gone"

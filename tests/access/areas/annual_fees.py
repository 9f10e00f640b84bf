"""The annual fee invoices (fogkeeper/web/billing/annual_fees.py): every staff role reads the
agency's runs and follows one; the manager and the clerk ("invoice") start one and queue a
stalled one again, by a POST; the outside roles never see them."""

from __future__ import annotations

from datetime import date

from fogkeeper.billing.models import AnnualFeeRun

TABLE = """
web:annual_fees                     GET   ok    ok    ok    ok    404   404   404   own   login
web:annual_fees                     POST  405   405   405   405   404   404   404   own   login
web:annual_fee_start                GET   405   405   405   405   404   404   404   own   login
web:annual_fee_start                POST  ok    403   ok    403   404   404   404   own   login
web:annual_fee_run                  GET   ok    ok    ok    ok    404   404   404   404   login
web:annual_fee_run                  POST  405   405   405   405   404   404   404   404   login
web:annual_fee_requeue              GET   405   405   405   405   404   404   404   404   login
web:annual_fee_requeue              POST  ok    403   ok    403   404   404   404   404   login
"""


def _run(side) -> dict:
    """A finished run of the side's agency (the demo has none)."""
    found, _ = AnnualFeeRun.objects.get_or_create(
        agency=side.agency,
        year=2026,
        defaults={"noticed_on": date(2026, 1, 15), "fee_code": "RGI", "status": "complete"},
    )
    return {"pk": found.pk}


RECORDS = {"web:annual_fee_run": _run, "web:annual_fee_requeue": _run}

"""The sweep runs (fogkeeper/web/reports/sweeps.py): every staff role reads the agency's runs and
follows one's progress; only the manager ("sweep") starts one, by a POST; the outside roles
never see them."""

from __future__ import annotations

from datetime import date

from fogkeeper.compliance.models import SweepRun

TABLE = """
web:sweep_list                      GET   ok    ok    ok    ok    404   404   404   own   login
web:sweep_list                      POST  405   405   405   405   404   404   404   own   login
web:sweep_detail                    GET   ok    ok    ok    ok    404   404   404   404   login
web:sweep_detail                    POST  405   405   405   405   404   404   404   404   login
web:sweep_start                     GET   405   405   405   405   404   404   404   own   login
web:sweep_start                     POST  ok    403   403   403   404   404   404   own   login
"""


def _run(side) -> dict:
    """A finished run of the side's agency (the demo has none)."""
    found, _ = SweepRun.objects.get_or_create(
        agency=side.agency, as_of=date(2026, 1, 31), defaults={"status": SweepRun.COMPLETE}
    )
    return {"pk": found.pk}


RECORDS = {"web:sweep_detail": _run}

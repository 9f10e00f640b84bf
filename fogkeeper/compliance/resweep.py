"""Establishments evaluated again after a write: the sweep's storage for a batch of them, so
that their status and findings are what the next sweep of their agency would store. The write
services ask for it on commit (fogkeeper/reevaluation.py); compliance provides `reevaluate`
when it is ready (apps.py), and the queued task of many runs it too (tasks.py)."""

from __future__ import annotations

from datetime import date

from fogkeeper.registry.models import Agency, FoodServiceEstablishment

from .dashboard import figures_refresh
from .models import SweepRun
from .sweep import SweepResult, sweep_ids


def reevaluate(agency_id: int, establishment_ids: list[int], as_of: date | None) -> int:
    """Evaluate these establishments of the agency on `as_of` (None: the agency's today) and
    store what changed (the ids of another agency, or of none, are left out; no SweepRun is
    saved: the agency's sweep runs are its full sweeps), then count the dashboard's figures
    again, once for them all. Returns how many were evaluated. Safe to run twice: the store
    writes only what changed."""
    agency = Agency.objects.get(pk=agency_id)
    ids = list(
        FoodServiceEstablishment.objects.filter(agency=agency, pk__in=establishment_ids)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    as_of = as_of or agency.today()
    if ids:
        sweep_ids(agency, ids, as_of, SweepResult(run=SweepRun(agency=agency, as_of=as_of)))
        figures_refresh(agency=agency, establishment_ids=ids)
    return len(ids)


def sweep_establishment(establishment: FoodServiceEstablishment, *, as_of: date) -> SweepResult:
    """Evaluate `establishment` on `as_of` and store what changed, returning what the sweep
    did (for the commands and tests that look at it)."""
    agency = establishment.agency
    result = SweepResult(run=SweepRun(agency=agency, as_of=as_of))
    sweep_ids(agency, [establishment.pk], as_of, result)
    figures_refresh(agency=agency, establishment_ids=[establishment.pk])
    return result

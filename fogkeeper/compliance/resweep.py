"""One establishment evaluated again at once, after a write: the sweep's storage for a batch
of one, so that its status and findings are what the next sweep of its agency would store."""

from __future__ import annotations

from datetime import date

from fogkeeper.registry.models import FoodServiceEstablishment

from .models import SweepRun
from .sweep import SweepResult, sweep_ids


def sweep_establishment(establishment: FoodServiceEstablishment, *, as_of: date) -> SweepResult:
    """Evaluate `establishment` on `as_of` and store what changed (no SweepRun is saved: the
    agency's sweep runs are its full sweeps)."""
    agency = establishment.agency
    result = SweepResult(run=SweepRun(agency=agency, as_of=as_of))
    sweep_ids(agency, [establishment.pk], as_of, result)
    return result

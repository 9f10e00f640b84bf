"""Permits, where the pack has them: at most one in force at an establishment, issued for the
pack's term, and the one it superseded."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from .tables import Table

if TYPE_CHECKING:
    from .program import _Generator


class Permits:
    def __init__(self, g: _Generator):
        from fogkeeper.permits.models import Permit

        self.g = g
        self.t_permit = Table(
            Permit,
            [
                "agency_id",
                "establishment_id",
                "number",
                "holder",
                "issued_on",
                "expires_on",
                "renewal_applied_on",
                "service_frequency_days",
                "yellow_grease_frequency_days",
                "status",
                "ended_on",
            ],
        )

    def add(self, fid, devices, opened, end, holders, sloppy, bad) -> int | None:
        """The permit issued to the operator of the day, with the first large device's
        frequency, and the one it superseded; returns the waste oil pickup frequency set."""
        g = self.g
        rng, law, d = g.rng, g.ordinance, date.fromordinal
        rnd, ri, choice = rng.random, rng.randint, rng.choice
        A, agency_id = g.A, g.agency.pk
        operator, previous, op_since = holders
        permit_freq = next((f for _, kind, _, f, _, _ in devices if kind in law.large), None)
        yellow = choice((60, 90)) if law.yellow_grease and rnd() < 0.15 else None
        term = law.permit_term
        if term and rnd() < 0.92 and opened < end:
            late = bad(0.15)
            issued = max(opened, A - ri(0, term + (90 if late else -30)))
            if issued <= end:
                expires = issued + term - 1
                holder = previous if previous and op_since > issued else operator
                applied = None
                lead = law.renewal_lead
                if lead is not None and expires - lead - 60 < A and (not sloppy or rnd() < 0.5):
                    applied = expires - ri(-20 if sloppy else lead + 1, lead + 60)
                self.t_permit.rows.append(
                    (
                        agency_id,
                        fid,
                        f"P-{fid:07d}-2",
                        holder,
                        d(issued),
                        d(expires),
                        d(applied) if applied and applied <= A else None,
                        permit_freq,
                        yellow,
                        "active",
                        None,
                    )
                )
                if issued - term >= opened:
                    self.t_permit.rows.append(
                        (
                            agency_id,
                            fid,
                            f"P-{fid:07d}-1",
                            holder,
                            d(issued - term),
                            d(issued - 1),
                            d(issued - ri(61, 120)),
                            permit_freq,
                            yellow,
                            "superseded",
                            d(issued - 1),
                        )
                    )
        return yellow

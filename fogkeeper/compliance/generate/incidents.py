"""Sewer overflows, blockages and spills at a few establishments, some attributed to them."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from .tables import Table

if TYPE_CHECKING:
    from .program import _Generator


class Incidents:
    def __init__(self, g: _Generator):
        from fogkeeper.incidents.models import Incident

        self.g = g
        self.t_incident = Table(
            Incident,
            [
                "agency_id",
                "establishment_id",
                "code",
                "date",
                "kind",
                "attributed",
                "fog_caused",
                "gallons",
                "address",
                "normalised_address",
                "written_report_on",
                "clearance_inspection_on",
            ],
        )
        self.incident_no = 0

    def add(self, fid, address, first, end, sloppy) -> None:
        g = self.g
        rng = g.rng
        d = date.fromordinal
        if first >= end:
            return
        when = rng.randint(first, end)
        self.incident_no += 1
        attributed = rng.random() < (0.6 if sloppy else 0.3)
        report = clearance = None
        if attributed and rng.random() < 0.8:
            report = when + rng.randint(1, 12)
        if attributed and rng.random() < 0.7:
            clearance = when + rng.randint(1, 40)
        self.t_incident.rows.append(
            (
                g.agency.pk,
                fid,
                f"SSO-{d(when).year}-{self.incident_no:05d}",
                d(when),
                rng.choice(("overflow", "overflow", "blockage", "spill")),
                attributed,
                attributed and rng.random() < 0.8,
                float(rng.randint(5, 900)),
                address,
                g.normalise(address),
                d(report) if report and report <= g.A else None,
                d(clearance) if clearance and clearance <= g.A else None,
            )
        )

"""The demo's sewer segment cleanings, from fogkeeper/demo/sewer-cleanings.yaml."""

from __future__ import annotations

from datetime import date, timedelta
from functools import cache
from pathlib import Path

from fogkeeper.safeload import load_yaml

DATA = Path(__file__).resolve().parent / "sewer-cleanings.yaml"


@cache
def _cleanings() -> dict:
    return load_yaml(DATA.read_text(encoding="utf-8")) or {}


def load_cleanings(agency, *, as_of: date, staff) -> int:
    """Write the cleanings the data file gives the agency's pack; how many."""
    from fogkeeper.registry.models import SewerSegment
    from fogkeeper.sewers.models import SegmentCleaning

    by_segment = _cleanings().get(agency.pack, {})
    segments = {
        s.code: s for s in SewerSegment.objects.filter(agency=agency, code__in=list(by_segment))
    }
    rows = [
        SegmentCleaning(
            agency=agency,
            segment=segments[code],
            cleaned_on=as_of - timedelta(days=c["days_ago"]),
            crew=c["crew"],
            method=c["method"],
            fog_found=c["fog_found"],
            notes=c.get("notes", ""),
            recorded_by=staff,
        )
        for code, cleanings in by_segment.items()
        for c in cleanings
    ]
    SegmentCleaning.objects.bulk_create(rows)
    return len(rows)

"""Segments and cleanings for the sewer tests."""

from __future__ import annotations

from datetime import date, timedelta

from fogkeeper.registry.models import SewerSegment
from fogkeeper.sewers.models import SegmentCleaning

AS_OF = date(2026, 12, 1)


def make_segment(agency, code: str = "S-1", days: int | None = 90, **kw) -> SewerSegment:
    return SewerSegment.objects.create(
        agency=agency,
        code=code,
        prone_to_blockage=days is not None,
        cleaning_frequency_days=days,
        **kw,
    )


def clean(segment, days_ago: int, fog: str = "light", as_of: date = AS_OF) -> SegmentCleaning:
    return SegmentCleaning.objects.create(
        agency=segment.agency,
        segment=segment,
        cleaned_on=as_of - timedelta(days=days_ago),
        crew="Crew 2",
        method="hydro_jet",
        fog_found=fog,
    )

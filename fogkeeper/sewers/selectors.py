"""Where each sewer segment's cleaning stands on a day: when it was last cleaned, when the next
falls due by its cleaning frequency, whether that has passed, and whether heavy FOG at its last
two cleanings puts its frequency up for review."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta

from fogkeeper.registry.models import Agency, SewerSegment

from .models import SegmentCleaning

DUE_SOON_DAYS = 30
STATES = {
    "overdue": "Cleaning overdue",
    "never": "Never cleaned",
    "due_soon": "Cleaning due soon",
    "current": "Cleaned on schedule",
    "no_frequency": "Prone to blockage, no cleaning frequency set",
    "unscheduled": "Not on a cleaning schedule",
}
LATE = ("overdue", "never")


@dataclass
class SegmentState:
    segment: SewerSegment
    cleanings: list[SegmentCleaning] = field(default_factory=list)  # newest first, to as_of
    due_on: date | None = None
    state: str = "unscheduled"
    frequency_review: bool = False

    @property
    def last(self) -> SegmentCleaning | None:
        return self.cleanings[0] if self.cleanings else None

    @property
    def state_word(self) -> str:
        return STATES[self.state]

    @property
    def late(self) -> bool:
        return self.state in LATE


def segment_state(segment: SewerSegment, cleanings: list[SegmentCleaning], as_of: date):
    """The state of one segment from its cleanings up to `as_of` (newest first). A segment
    with a cleaning frequency falls due that many days after its last cleaning; one never
    cleaned is due at once. Two cleanings in a row finding heavy FOG call for a review."""
    done = [c for c in cleanings if c.cleaned_on <= as_of]
    state = SegmentState(segment=segment, cleanings=done)
    state.frequency_review = len(done) >= 2 and all(c.fog_found == "heavy" for c in done[:2])
    days = segment.cleaning_frequency_days
    if not days:
        state.state = "no_frequency" if segment.prone_to_blockage else "unscheduled"
        return state
    if not done:
        state.state = "never"
        return state
    state.due_on = done[0].cleaned_on + timedelta(days=days)
    if state.due_on < as_of:
        state.state = "overdue"
    elif state.due_on <= as_of + timedelta(days=DUE_SOON_DAYS):
        state.state = "due_soon"
    else:
        state.state = "current"
    return state


def cleaning_states(*, agency: Agency, as_of: date, segments=None) -> list[SegmentState]:
    """Every segment of the agency (or those given), in code order, with its state."""
    if segments is None:
        segments = SewerSegment.objects.filter(agency=agency).order_by("code")
    segments = list(segments)
    by_segment: dict[int, list[SegmentCleaning]] = defaultdict(list)
    for c in SegmentCleaning.objects.filter(
        agency=agency, segment__in=[s.pk for s in segments], cleaned_on__lte=as_of
    ).order_by("segment_id", "-cleaned_on", "-id"):
        by_segment[c.segment_id].append(c)
    return [segment_state(s, by_segment[s.pk], as_of) for s in segments]


def cleanings_overdue(*, agency: Agency, as_of: date) -> list[SegmentState]:
    """The segments on a cleaning schedule whose cleaning has fallen due and not been done
    (never cleaned first, then the longest overdue), for the calendar and the dashboard."""
    late = [
        s
        for s in cleaning_states(
            agency=agency,
            as_of=as_of,
            segments=SewerSegment.objects.filter(
                agency=agency, cleaning_frequency_days__isnull=False
            ),
        )
        if s.late
    ]
    return sorted(late, key=lambda s: (s.due_on is not None, s.due_on or as_of, s.segment.code))


def frequency_reviews(*, agency: Agency, as_of: date) -> list[SegmentState]:
    """The segments whose last two cleanings both found heavy FOG."""
    return [s for s in cleaning_states(agency=agency, as_of=as_of) if s.frequency_review]

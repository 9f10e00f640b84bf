"""Where each sewer segment's cleaning stands on a day: when it was last cleaned, when the next
falls due by its cleaning frequency, whether that has passed, and whether heavy FOG at its last
two cleanings puts its frequency up for review; and what the segment page shows around it
(the establishments feeding it, the spills on it)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.db.models import Count, F, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from fogkeeper.incidents.models import Incident
from fogkeeper.incidents.reporting_pack import of_agency
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, SewerSegment

from .models import SegmentCleaning


def cleaning_citation(agency: Agency) -> str:
    """What asks for the cleaning schedule, as the agency's State pack cites it (California's
    Order asks the Sewer System Management Plan to name the sections prone to blockages and
    set a schedule for each), or "" where its pack names none: the frequency of each is the
    agency's own, on the segment."""
    state = of_agency(agency)
    return state.sewer_cleaning if state is not None else ""


DUE_SOON_DAYS = 30  # how far ahead the pages warn of a cleaning falling due (not a rule)
STATES = {
    "overdue": "Cleaning overdue",
    "never": "Never cleaned",
    "due_soon": "Cleaning due soon",
    "current": "Cleaned on schedule",
    "no_frequency": "Prone to blockage, no cleaning frequency set",
    "unscheduled": "Not on a cleaning schedule",
}
LATE = ("overdue", "never")
REVIEW_WORDS = "Listed for a frequency review: heavy FOG at the last two cleanings"
# The segment list's filters (`show=`): a state, the review list, or the prone segments.
SHOWN = {
    "overdue": "Cleaning overdue",
    "never": "Never cleaned",
    "due_soon": "Cleaning due soon",
    "review": "Listed for a frequency review",
    "prone": "Prone to blockage",
}


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

    def shown_by(self, show: str) -> bool:
        """Whether the segment list's filter `show` (a key of SHOWN, or "" for all) keeps it."""
        if show == "review":
            return self.frequency_review
        if show == "prone":
            return self.segment.prone_to_blockage
        return not show or self.state == show


def segment_state(segment: SewerSegment, cleanings: list[SegmentCleaning], as_of: date):
    """The state of one segment from its cleanings up to `as_of` (newest first). A segment
    with a cleaning frequency falls due that many days after its last cleaning (due on that
    day, overdue the day after); one never cleaned is due at once. Two cleanings in a row
    finding heavy FOG call for a review of its frequency."""
    done = sorted(
        (c for c in cleanings if c.cleaned_on <= as_of),
        key=lambda c: (c.cleaned_on, c.pk or 0),
        reverse=True,
    )
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


def _cleanings_of(segment_ids: list[int], as_of: date, keep: int | None) -> QuerySet:
    """The cleanings of the segments up to `as_of`, newest first in each; only the newest
    `keep` of each segment when given (all a state needs is the last two)."""
    rows = SegmentCleaning.objects.filter(segment__in=segment_ids, cleaned_on__lte=as_of)
    if keep is not None:
        rows = rows.annotate(
            newest=Window(
                RowNumber(),
                partition_by=[F("segment_id")],
                order_by=[F("cleaned_on").desc(), F("id").desc()],
            )
        ).filter(newest__lte=keep)
    return rows.order_by("segment_id", "-cleaned_on", "-id")


def _states(segments: list[SewerSegment], as_of: date, keep: int | None) -> list[SegmentState]:
    by_segment: dict[int, list[SegmentCleaning]] = defaultdict(list)
    for c in _cleanings_of([s.pk for s in segments], as_of, keep):
        by_segment[c.segment_id].append(c)
    return [segment_state(s, by_segment[s.pk], as_of) for s in segments]


def cleaning_states(
    *,
    agency: Agency,
    as_of: date,
    segments: Iterable[SewerSegment] | None = None,
    keep: int | None = None,
) -> list[SegmentState]:
    """Every segment of the agency (or those given, of the agency), in code order unless
    given, with its state and its cleanings up to `as_of` (only the newest `keep` of each
    when given)."""
    if segments is None:
        segments = SewerSegment.objects.filter(agency=agency).order_by("code")
    segments = [s for s in segments if s.agency_id == agency.pk]
    return _states(segments, as_of, keep)


def iter_cleaning_states(
    *, agency: Agency, as_of: date, segments: QuerySet, chunk: int = 2000
) -> Iterator[SegmentState]:
    """The states of a queryset of the agency's segments, read `chunk` segments at a time
    (each with its last two cleanings), so that an export's memory does not grow with them."""
    batch: list[SewerSegment] = []
    for segment in segments.filter(agency=agency).iterator(chunk_size=chunk):
        batch.append(segment)
        if len(batch) == chunk:
            yield from _states(batch, as_of, 2)
            batch = []
    if batch:
        yield from _states(batch, as_of, 2)


def cleanings_overdue(*, agency: Agency, as_of: date) -> list[SegmentState]:
    """The segments on a cleaning schedule whose cleaning has fallen due and not been done
    (never cleaned first, then the longest overdue), for the calendar and the dashboard."""
    scheduled = SewerSegment.objects.filter(agency=agency, cleaning_frequency_days__isnull=False)
    late = [s for s in cleaning_states(agency=agency, as_of=as_of, segments=scheduled) if s.late]
    return sorted(late, key=lambda s: (s.due_on is not None, s.due_on or as_of, s.segment.code))


def frequency_reviews(*, agency: Agency, as_of: date) -> list[SegmentState]:
    """The segments whose last two cleanings both found heavy FOG."""
    states = cleaning_states(agency=agency, as_of=as_of, keep=2)
    return [s for s in states if s.frequency_review]


def _matching(agency: Agency, q: str) -> QuerySet:
    rows = SewerSegment.objects.filter(agency=agency).annotate(lateral_count=Count("laterals"))
    if q.strip():
        rows = rows.filter(Q(code__icontains=q.strip()) | Q(description__icontains=q.strip()))
    return rows.order_by("code")


def segment_list(*, agency: Agency, as_of: date, q: str = "", show: str = "") -> list:
    """The segment list: the agency's segments whose code or description has `q`, in code
    order, with their states, kept by the filter `show` (a key of SHOWN, or "" for all)."""
    states = _states(list(_matching(agency, q)), as_of, 2)
    return [s for s in states if s.shown_by(show)]


def segment_export(*, agency: Agency, as_of: date, q: str = "", show: str = ""):
    """The same rows as `segment_list`, as an iterator read a chunk of segments at a time."""
    states = iter_cleaning_states(agency=agency, as_of=as_of, segments=_matching(agency, q))
    return (s for s in states if s.shown_by(show))


def feeding_establishments(segment: SewerSegment) -> QuerySet:
    """The establishments whose laterals reach the segment, with their compliance status."""
    return (
        FoodServiceEstablishment.objects.filter(
            agency_id=segment.agency_id, laterals__segment=segment
        )
        .select_related("compliance")
        .distinct()
        .order_by("name", "code")
    )


def segment_spills(segment: SewerSegment) -> QuerySet:
    """The spills on the segment: those recorded on it, and those of the establishments
    feeding it, newest first."""
    return (
        Incident.objects.filter(agency_id=segment.agency_id)
        .filter(Q(segment=segment) | Q(establishment__laterals__segment=segment))
        .select_related("establishment")
        .distinct()
        .order_by("-date", "-id")
    )

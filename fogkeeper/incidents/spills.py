"""Spills as the State counts them: the category of an incident and the notification and
report deadlines it owes, each with its citation and its state, computed on the State's legal
calendar, all from the State pack the agency's jurisdiction pack names (reporting_pack.py:
California's General Order is the one bundled). An agency whose pack names none owes the
State nothing here: no category, no deadline; its incidents keep their facts and the
ordinance's own deadlines (the engine's incident rules).

Datetimes are stored in UTC; a deadline counted in days starts on the local date (the pack's
time zone) of the moment it counts from, so a spill ending at 23:30 local time counts from
that day, not the next one in UTC."""

from __future__ import annotations

import calendar as _calendar
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.db.models import Q

from fogkeeper.incidents.models import Incident
from fogkeeper.registry.models import Agency

from .reporting_pack import COUNTED_FROM, Obligation, ReportingPack, of_agency

STATES = {
    "done": "Done",
    "done_late": "Done late",
    "due": "Due",
    "late": "Late",
    "open": "Open for amendment",
    "closed": "Window closed",
    "unknown": "Cannot be computed",
    "in_ciwqs": "In the State's system (imported from its export)",
}
LATE = ("late", "done_late")


@dataclass(frozen=True)
class Deadline:
    key: str
    what: str
    due: date | datetime | None
    counted_from: str  # as said: "the spill end date (2025-03-04)"
    citation: str
    done_on: date | datetime | None
    state: str
    window: bool = False

    @property
    def state_word(self) -> str:
        return STATES[self.state]

    @property
    def late(self) -> bool:
        return self.state in LATE

    @property
    def day(self) -> date | None:
        return self.due.date() if isinstance(self.due, datetime) else self.due

    @property
    def shown(self) -> str:
        if isinstance(self.due, datetime):
            return self.due.strftime("%Y-%m-%d %H:%M %Z")
        return self.due.isoformat() if self.due else "—"


def _pack(incident: Incident, pack: ReportingPack | None) -> ReportingPack | None:
    """The State pack given, else the one of the incident's agency (None: it names none)."""
    return pack if pack is not None else of_agency(incident.agency)


# -- the category ----------------------------------------------------------------------------


def derive_category(
    incident: Incident, pack: ReportingPack | None = None
) -> tuple[int | None, str]:
    """The category the incident's own data gives, with the reason and its citation; None
    (and what is missing) when the data does not decide it, or (and an empty reason) when the
    agency's State pack is none."""
    pack = _pack(incident, pack)
    if pack is None:
        return None, ""
    one = pack.categories[1].citation
    surface = incident.gallons_to_surface_water
    if incident.reached_surface_water is False and surface is not None and surface > 0:
        return None, (
            f"It is recorded as not reaching surface water, yet with {_gallons(surface)} gallons "
            f"reaching it: that decides category 1 ({one}). Staff set the category."
        )
    if incident.reached_surface_water or (surface is not None and surface > 0):
        return 1, f"It reached surface water (any volume is category 1; {one})."
    if incident.reached_storm_drain and incident.storm_drain_fully_captured is False:
        return 1, (
            "It reached a storm drain and was not fully captured and returned to the sewer "
            f"(category 1; {one})."
        )
    if incident.reached_storm_drain and incident.storm_drain_fully_captured is None:
        return None, (
            "It reached a storm drain, and whether all of it was captured and returned to the "
            f"sewer is not recorded: that decides category 1 ({one}). Staff set the category."
        )
    if incident.reached_surface_water is None:
        return None, (
            f"Whether it reached surface water is not recorded ({one}). Staff set the category."
        )
    if incident.gallons is None:
        return None, (
            "The volume spilled is unknown and it did not reach surface water: categories 2 to "
            f"4 go by volume ({pack.categories[2].citation}). Staff set the category."
        )
    return _by_volume(incident.gallons, pack)


def _by_volume(gallons: Decimal, pack: ReportingPack) -> tuple[int, str]:
    two, three = pack.thresholds["category_2_gallons"], pack.thresholds["category_3_gallons"]
    said = f"{_gallons(gallons)} gallons, not reaching surface water"
    if gallons >= two.gallons:
        return 2, f"{said}: {_gallons(two.gallons)} gallons or more is category 2 ({two.citation})."
    if gallons >= three.gallons:
        return 3, (
            f"{said}: {_gallons(three.gallons)} to under {_gallons(two.gallons)} gallons is "
            f"category 3 ({pack.categories[3].citation})."
        )
    return 4, (
        f"{said}: under {_gallons(three.gallons)} gallons is category 4 "
        f"({pack.categories[4].citation})."
    )


def _gallons(value: Decimal) -> str:
    return f"{value.normalize():,f}"


def contradiction(
    incident: Incident, category: int, pack: ReportingPack | None = None
) -> str | None:
    """Why a category staff set contradicts the incident's own data (None when it does not):
    where the data decides the category, staff may not set another."""
    derived, reason = derive_category(incident, pack)
    if derived is None or derived == category:
        return None
    return f"Category {category} contradicts the spill's data. {reason}"


# -- the deadlines ---------------------------------------------------------------------------


def deadlines(incident: Incident, as_of: date, pack: ReportingPack | None = None) -> list[Deadline]:
    """What Attachment E1 asks of the incident's category, in the pack's order: when each is
    due, counted from what, its citation, when it was done, and its state on `as_of`. An
    incident without a category, or of an agency whose State pack is none, owes nothing the
    pack can compute."""
    pack = _pack(incident, pack)
    if pack is None or incident.category is None:
        return []
    out: list[Deadline] = []
    due_of: dict[str, date | datetime | None] = {}
    for ob in pack.obligations_for(incident.category):
        start, said = _start(incident, ob, pack, due_of)
        due = pack.calendar.add(start, ob.period) if start is not None else None
        due_of[ob.key] = due
        done = getattr(incident, ob.done)
        out.append(
            Deadline(
                key=ob.key,
                what=ob.what,
                due=due,
                counted_from=said,
                citation=ob.citation,
                done_on=done,
                state=_state(incident, ob, due, done, as_of, pack),
                window=ob.window,
            )
        )
    return out


def _local(value: datetime | None, pack: ReportingPack) -> datetime | None:
    return value.astimezone(pack.tz) if value is not None else None


def _start(
    incident: Incident, ob: Obligation, pack: ReportingPack, due_of: dict
) -> tuple[date | datetime | None, str]:
    """The moment (hours) or the local date (days) the deadline is counted from, and how the
    page says it."""
    name = COUNTED_FROM[ob.counted_from]
    if ob.counted_from == "month_end":
        day = _local(incident.started_at, pack)
        spill_day = day.date() if day else incident.date
        last = spill_day.replace(day=_calendar.monthrange(spill_day.year, spill_day.month)[1])
        return last, f"{name} ({last.isoformat()})"
    if ob.counted_from == "certified_due":
        due = due_of.get("certified_report")
        return due, f"{name} ({due.isoformat() if due else 'not computed'})"
    moment = {
        "knowledge": incident.known_at,
        "spill_end": incident.ended_at,
        "oes_notification": incident.oes_notified_at,
    }[ob.counted_from]
    local = _local(moment, pack)
    if local is None:
        return None, f"{name} (not recorded)"
    if ob.period.unit == "hours":
        return local, f"{name} ({local.strftime('%Y-%m-%d %H:%M')})"
    return local.date(), f"{name} ({local.date().isoformat()})"


def _state(
    incident: Incident,
    ob: Obligation,
    due: date | datetime | None,
    done: date | datetime | None,
    as_of: date,
    pack: ReportingPack,
) -> str:
    """done / done late / due / late on `as_of`; a window is open or closed, never late."""
    if incident.source == "ciwqs" and done is None:
        return "in_ciwqs"
    if due is None:
        return "done" if done is not None else "unknown"
    if done is not None:
        if isinstance(due, datetime) and isinstance(done, datetime):
            on_time = done <= due
        else:
            on_time = _local_date(done, pack) <= _local_date(due, pack)
        return "done" if on_time else "done_late"
    passed = as_of > _local_date(due, pack)
    if ob.window:
        return "closed" if passed else "open"
    return "late" if passed else "due"


def _local_date(value: date | datetime, pack: ReportingPack) -> date:
    """The day of a moment in the State pack's time zone (a date is its own day)."""
    return value.astimezone(pack.tz).date() if isinstance(value, datetime) else value


# -- across incidents: for the calendar and the dashboard -------------------------------------


@dataclass(frozen=True)
class SpillReport:
    incident: Incident
    deadline: Deadline


def reports_due(
    *, as_of: date, start: date, end: date, agency=None, pack: ReportingPack | None = None
) -> list[SpillReport]:
    """The spill reports of every agency (or of `agency`) due from `start` to the day before
    `end`, and every one late on `as_of` whatever its date, by due date (a window for an
    amendment is no report due), each agency's under its own State pack (none: nothing owed).
    Spills imported from the State's own export are in its system already and owe nothing
    here."""
    if agency is None:
        every = [
            reports_due(as_of=as_of, start=start, end=end, agency=a, pack=pack)
            for a in Agency.objects.order_by("code")
        ]
        return sorted((r for found in every for r in found), key=_report_order)
    pack = pack if pack is not None else of_agency(agency)
    if pack is None:
        return []
    undone = Q()
    for ob in pack.obligations:
        undone |= Q(**{f"{ob.done}__isnull": True})
    qs = (
        Incident.objects.filter(category__isnull=False)
        .exclude(source="ciwqs")
        .filter(undone)
        .select_related("establishment", "agency")
        .order_by("date", "code")
        .filter(agency=agency)
    )
    out = []
    for incident in qs.iterator(chunk_size=500):
        for d in deadlines(incident, as_of, pack):
            if d.state == "late" or (
                d.state == "due" and d.day is not None and start <= d.day < end
            ):
                out.append(SpillReport(incident=incident, deadline=d))
    out.sort(key=_report_order)
    return out


def _report_order(r: SpillReport) -> tuple:
    return (r.deadline.day, r.incident.code, r.deadline.key)


def summary(found: list[Deadline]) -> str:
    """The incident's report state in a few words, for lists and exports: the first late
    report, else the next one due, else done (or in CIWQS); empty when nothing is owed."""
    if not found:
        return ""
    for state, word in (("late", "Late"), ("due", "Due"), ("unknown", "Cannot be computed")):
        hit = [d for d in found if d.state == state]
        if hit:
            d = min(hit, key=lambda d: d.day or date.max)
            more = f" (+{len(hit) - 1} more)" if len(hit) > 1 else ""
            by = f" by {d.shown}" if d.due else ""
            return f"{word}: {d.what}{by}{more}"
    if all(d.state == "in_ciwqs" for d in found):
        return STATES["in_ciwqs"]
    return "Done late" if any(d.state == "done_late" for d in found) else "Done"


def late_incident_ids(*, agency, as_of: date) -> set[int]:
    """The agency's incidents with a State report late on `as_of`."""
    return {r.incident.pk for r in reports_due(agency=agency, as_of=as_of, start=as_of, end=as_of)}

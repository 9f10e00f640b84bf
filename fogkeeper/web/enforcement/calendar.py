"""The clerk's legal calendar: the hearings, deadlines, finality and lien dates of the
agency's open cases from a week back to some weeks ahead, by day, with what the agency itself
has let pass (a hearing not held inside its window, a decision past due) listed first; and
the same entries as CSV and iCalendar for the clerk's own calendar.

Every date of a case comes from the engine's calendar of each establishment as the last sweep
stored it (`ComplianceStatus.deadlines`), from the hearings recorded or from the milestones of
a compliance schedule (what must be done, by when); nothing is computed here but which of
those dates have passed undone. Beside the cases: the spill reports the State's General
Order asks, due and late (fogkeeper.incidents.spills), the sewer segments
whose scheduled cleaning is overdue (fogkeeper.sewers.selectors), and the requests whose
delivery the ordinance dates, due or late (fogkeeper.filings), each linking to its page."""

from __future__ import annotations

import csv
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from itertools import groupby
from typing import Any

import icalendar
from django import forms
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from fogkeeper.compliance.models import ComplianceStatus, Finding
from fogkeeper.enforcement.models import (
    HEARING,
    STEPS,
    WAIVER,
    ActionFact,
    EnforcementAction,
    closure_on,
)
from fogkeeper.filings.models import Filing
from fogkeeper.filings.selectors import open_due
from fogkeeper.filings.selectors import view as filing_view
from fogkeeper.incidents.reporting_pack import of_agency
from fogkeeper.incidents.spills import SpillReport, reports_due
from fogkeeper.registry.models import Agency
from fogkeeper.rules.packs import Pack
from fogkeeper.sewers.selectors import SegmentState, cleaning_citation, cleanings_overdue
from fogkeeper.submittals.selectors import DueReport, due_between

from ..common import policy
from ..common.exports import neutralise
from ..common.pages import PAGE_SIZE, agency_page, page_as_of, reads_only
from .cases import DEADLINE_KINDS, action_title, case_list

KINDS = {
    "hearing": "Hearings",
    "deadline": "Deadlines",
    "final": "Final dates",
    "lien": "Lien dates",
    "spill_report": "State spill reports",
    "cleaning": "Sewer cleanings overdue",
    "request": "Requests to deliver",
    "report": "Reports required of establishments",
    "overdue": "Overdue on our side",
}
NAMED_KINDS = {"final": "final", "lien_eligible": "lien"}  # deadline name -> calendar kind
DEFAULT_WEEKS, MAX_WEEKS = 4, 26
PAST_DAYS = 7
HEARD_FIELDS = ("hearing_on", "hearing_concluded_on", "hearing_concluded_at")
DATE_INVALID = "enforcement.hearing_date_invalid"
CSV_COLUMNS = [
    "date",
    "time",
    "kind",
    "overdue",
    "what",
    "action",
    "action_title",
    "establishment",
    "establishment_name",
    "case",
    "citation",
    "why",
    "url",
]


class CalendarForm(forms.Form):
    weeks = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_WEEKS,
        label="Weeks ahead",
        error_messages={
            "invalid": f"Weeks ahead: give a whole number of weeks from 1 to {MAX_WEEKS}.",
            "min_value": f"Weeks ahead: at least 1 week (at most {MAX_WEEKS}).",
            "max_value": f"Weeks ahead: at most {MAX_WEEKS} weeks (half a year).",
        },
    )
    kind = forms.MultipleChoiceField(
        required=False,
        choices=list(KINDS.items()),
        label="Show",
        error_messages={"invalid_choice": "Show: %(value)s is not a kind of entry."},
    )


@dataclass
class Entry:
    day: date
    at: datetime | None  # the hour of an hour-based deadline, in the pack's time zone
    kind: str  # hearing, deadline, final or lien (KINDS)
    name: str  # the engine's name of the date (`hearing`, `decision`, `final`…)
    engine_kind: str  # deadline, earliest, event, or hearing for a hearing held
    what: str
    action: str
    action_title: str
    establishment: str
    establishment_name: str
    case: str
    citation: str
    overdue: bool = False
    why: str = ""
    href: str = ""  # the page of an entry that is no case's: an incident, a sewer segment

    @property
    def shown(self) -> str:
        return self.at.strftime("%Y-%m-%d %H:%M") if self.at else self.day.isoformat()

    @property
    def kinds(self) -> set[str]:
        return {self.kind, "overdue"} if self.overdue else {self.kind}

    def uid(self, agency: Agency) -> str:
        return (
            f"{agency.code}-{self.establishment}-{self.action}-{self.name}-{self.engine_kind}"
            "@fogkeeper"
        )


@dataclass
class Calendar:
    as_of: date
    start: date
    end: date  # the first day after the calendar
    weeks: int
    kinds: list[str]
    entries: list[Entry]
    overdue: list[Entry] = field(default_factory=list)

    @property
    def last(self) -> date:
        return self.end - timedelta(days=1)


def legal_calendar(
    *,
    agency: Agency,
    as_of: date,
    weeks: int = DEFAULT_WEEKS,
    kinds: list[str] | None = None,
    now: datetime | None = None,
) -> Calendar:
    """The entries of the agency's cases open on `as_of` from `as_of` - 7 days through the
    day before `as_of` + `weeks` weeks, sorted by date and hour; an entry overdue on the
    agency's side is kept whatever its date (a case with one counts as open: the agency owes
    an act). `kinds` keeps only entries of those kinds (KINDS; "overdue" the overdue ones).
    An hour-based deadline has passed once `now` is past it when `now` falls on `as_of`,
    else once `as_of` has begun."""
    pack = agency.get_pack()
    start, end = as_of - timedelta(days=PAST_DAYS), as_of + timedelta(weeks=weeks)
    cutoff = _cutoff(pack, as_of, now)
    open_ids = {row.case.pk for row in case_list(agency=agency, params={}, as_of=as_of) if row.open}
    actions = _actions(agency)
    invalid = set(
        Finding.objects.filter(agency=agency, rule=DATE_INVALID, open=True).values_list(
            "establishment_id", "subject"
        )
    )
    swept = dict(
        ComplianceStatus.objects.filter(
            establishment_id__in={a.establishment_id for a in actions}
        ).values_list("establishment_id", "deadlines")
    )
    entries = []
    for case_actions in _by_case(actions).values():
        if closure_on(case_actions, as_of) is not None:
            continue  # the manager closed the case: its dates leave the calendar
        codes = {a.code for a in case_actions}
        deadlines = [
            d for d in swept.get(case_actions[0].establishment_id) or [] if d["action"] in codes
        ]
        found = _case_entries(pack, case_actions, deadlines, cutoff, invalid)
        if case_actions[0].case_id in open_ids or any(e.overdue for e in found):
            entries += [e for e in found if e.overdue or start <= e.day < end]
    entries += [
        _spill_entry(r) for r in reports_due(agency=agency, as_of=as_of, start=start, end=end)
    ]
    cites = cleaning_citation(agency)
    entries += [
        _cleaning_entry(s, as_of, cites) for s in cleanings_overdue(agency=agency, as_of=as_of)
    ]
    requests = open_due(agency=agency, start=date.min, end=end - timedelta(days=1))
    entries += [e for f in requests if (e := _request_entry(f, as_of)).overdue or start <= e.day]
    if pack.reports:
        entries += [_report_entry(r) for r in due_between(agency, start, end, as_of)]
    entries.sort(key=_order)
    if kinds:
        entries = [e for e in entries if e.kinds & set(kinds)]
    return Calendar(
        as_of=as_of,
        start=start,
        end=end,
        weeks=weeks,
        kinds=list(kinds or []),
        entries=entries,
        overdue=[e for e in entries if e.overdue],
    )


def _order(entry: Entry) -> tuple:
    at = entry.at.time() if entry.at else time.min
    return (entry.day, at, entry.establishment, entry.action, entry.name, entry.engine_kind)


def _cutoff(pack: Pack, as_of: date, now: datetime | None) -> datetime:
    """The moment before which a date or an hour counts as passed on `as_of`."""
    tz = pack.calendar.tz
    if now is not None and now.astimezone(tz).date() == as_of:
        return now.astimezone(tz)
    return datetime.combine(as_of, time.min, tzinfo=tz)


def _actions(agency: Agency) -> list[EnforcementAction]:
    """Every action of the agency's cases with its facts, its case and its establishment."""
    return list(
        EnforcementAction.objects.filter(establishment__agency=agency)
        .select_related("case", "establishment")
        .prefetch_related(
            Prefetch("facts", queryset=ActionFact.objects.order_by("recorded_at", "pk"))
        )
        .order_by("case_id", "taken_on", "pk")
    )


def _by_case(actions: list[EnforcementAction]) -> dict[int, list[EnforcementAction]]:
    out: dict[int, list[EnforcementAction]] = defaultdict(list)
    for action in actions:
        out[action.case_id].append(action)
    return out


def _case_entries(
    pack: Pack,
    actions: list[EnforcementAction],
    deadlines: list[dict[str, Any]],
    cutoff: datetime,
    invalid: set[tuple[int, str]],
) -> list[Entry]:
    """One case's entries: its engine dates and its hearings, each marked overdue where the
    agency let a hearing or a decision pass."""
    by_code = {a.code: a for a in actions}
    waived = {a.refers_to_id for a in actions if a.type == WAIVER}
    entries = []
    for d in deadlines:
        action = by_code[d["action"]]
        if d["name"] == "hearing" and action.pk in waived:
            continue  # the charged party waived the hearing in writing
        entry = _deadline_entry(pack, action, d)
        if d["kind"] == "deadline" and _passed(entry, cutoff):
            entry.why = _undone(d["name"], action, actions, entry)
            entry.overdue = bool(entry.why)
        entries.append(entry)
    for action in actions:
        if action.type in STEPS:
            continue
        fields = action.effective_fields(list(action.facts.all()))
        for name in _milestone_fields(pack, action.type):
            entries += [_milestone_entry(pack, action, m) for m in fields.get(name) or []]
    for hearing in (a for a in actions if a.type == HEARING and a.fields.get("hearing_on")):
        entry = _hearing_entry(pack, hearing, by_code)
        notice = hearing.refers_to_id and next(a for a in actions if a.pk == hearing.refers_to_id)
        if notice and (hearing.establishment_id, notice.code) in invalid:
            entry.overdue = True
            entry.why = (
                f"The hearing date is outside the window of {notice.code} ({entry.citation})."
            )
        entries.append(entry)
    return entries


def _milestone_fields(pack: Pack, action_type: str) -> list[str]:
    spec = pack.actions.get(action_type)
    return [n for n, f in spec.fields.items() if f.kind == "milestones"] if spec else []


def _milestone_entry(pack: Pack, action: EnforcementAction, m: dict[str, Any]) -> Entry:
    """A milestone of a compliance schedule on the day it is due: what must be done, and the
    day it was met once it was (the operator's date: never overdue on the agency's side)."""
    what = f"Milestone {m['id']}" + (f": {m['what']}" if m.get("what") else "")
    if m.get("met_on"):
        what += f" (met {str(m['met_on'])[:10]})"
    return Entry(
        day=date.fromisoformat(str(m["due"])[:10]),
        at=None,
        kind="deadline",
        name=f"milestone-{m['id']}",
        engine_kind="milestone",
        what=what,
        action=action.code,
        action_title=action_title(pack, action.type),
        establishment=action.establishment.code,
        establishment_name=action.establishment.name,
        case=action.case.code,
        citation=action.cites,
    )


def _passed(entry: Entry, cutoff: datetime) -> bool:
    """A deadline at an hour has passed once the hour has; one on a day, once the day has."""
    return entry.at < cutoff if entry.at else entry.day < cutoff.date()


def _deadline_entry(pack: Pack, action: EnforcementAction, d: dict[str, Any]) -> Entry:
    at = None
    value = str(d["date"])
    if "T" in value:
        at = datetime.fromisoformat(value).astimezone(pack.calendar.tz)
    day = at.date() if at else date.fromisoformat(value[:10])
    name, kind = d["name"], d["kind"]
    return Entry(
        day=day,
        at=at,
        kind=NAMED_KINDS.get(name, "deadline"),
        name=name,
        engine_kind=kind,
        what=f"{name.replace('_', ' ').capitalize()} ({DEADLINE_KINDS.get(kind, kind).lower()})",
        action=action.code,
        action_title=action_title(pack, action.type),
        establishment=action.establishment.code,
        establishment_name=action.establishment.name,
        case=action.case.code,
        citation=d.get("citation", ""),
    )


def _hearing_entry(pack: Pack, hearing: EnforcementAction, by_code: dict) -> Entry:
    continued = hearing.fields.get("continued_from")
    notice = next((a for a in by_code.values() if a.pk == hearing.refers_to_id), None)
    on = f" on {action_title(pack, notice.type)} {notice.code}" if notice else ""
    what = f"Hearing{on}" + (f", continued from {continued}" if continued else "")
    return Entry(
        day=date.fromisoformat(str(hearing.fields["hearing_on"])[:10]),
        at=None,
        kind="hearing",
        name="hearing",
        engine_kind="hearing",
        what=what,
        action=hearing.code,
        action_title=action_title(pack, hearing.type),
        establishment=hearing.establishment.code,
        establishment_name=hearing.establishment.name,
        case=hearing.case.code,
        citation=hearing.cites,
    )


def _spill_entry(report: SpillReport) -> Entry:
    """A report the State's General Order asks of a spill, due or late (the reporting pack)."""
    i, d = report.incident, report.deadline
    fse = i.establishment
    at = d.due if isinstance(d.due, datetime) else None
    assert d.day is not None  # a report due or late has its day
    return Entry(
        day=d.day,
        at=at,
        kind="spill_report",
        name=d.key,
        engine_kind="spill",
        what=d.what,
        action=i.code,
        action_title=f"{i.kind.capitalize()}",
        establishment=fse.code if fse else "",
        establishment_name=fse.name if fse else (i.address or "no establishment"),
        case="",
        citation=d.citation,
        overdue=d.late,
        why=f"Not submitted by {d.shown} (counted from {d.counted_from})." if d.late else "",
        href=reverse("web:incident", kwargs={"pk": i.pk}),
    )


def _request_entry(filing: Filing, as_of: date) -> Entry:
    """A request not yet answered whose answer or delivery the ordinance dates (the record
    of a proceeding, San Clemente 13.30.090(D)): overdue once its day has passed."""
    v = filing_view(filing)
    fse = filing.establishment
    assert filing.due_on is not None and v.kind is not None
    within = v.kind.deliver_within
    return Entry(
        day=filing.due_on,
        at=None,
        kind="request",
        name="request",
        engine_kind="request",
        what=f"{v.title}: due",
        action=f"R-{filing.pk}",
        action_title="Request",
        establishment=fse.code,
        establishment_name=fse.name,
        case="",
        citation=within.reference if within else v.citation,
        overdue=filing.due_on < as_of,
        why=f"Filed {filing.filed_on.isoformat()}; not delivered." if filing.due_on < as_of else "",
        href=reverse("web:filing", kwargs={"pk": filing.pk}),
    )


def _report_entry(row: DueReport) -> Entry:
    """A report the agency required of an establishment, on its due date: the operator's to
    submit, so never overdue on the agency's side; `why` says whether it came in."""
    r, fse = row.requirement, row.requirement.establishment
    return Entry(
        day=row.due_on,
        at=None,
        kind="report",
        name=f"report-{r.pk}-{row.due_on.isoformat()}",  # the iCalendar uid's, one a date
        engine_kind="report",
        what=r.title,
        action="",
        action_title="report due",
        establishment=fse.code,
        establishment_name=fse.name,
        case="",
        citation=r.citation,
        why=row.state,
        href=reverse("web:required_reports", kwargs={"code": fse.code}),
    )


def _cleaning_entry(state: SegmentState, as_of: date, cites: str) -> Entry:
    """A sewer segment whose scheduled cleaning has fallen due undone (`cites`: what asks
    for the schedule, where the agency's State pack says)."""
    seg = state.segment
    last = state.last
    why = (
        f"Last cleaned {last.cleaned_on.isoformat()}; cleaned every "
        f"{seg.cleaning_frequency_days} days."
        if last
        else "Never cleaned."
    )
    return Entry(
        day=state.due_on or as_of,
        at=None,
        kind="cleaning",
        name="cleaning",
        engine_kind="cleaning",
        what=state.state_word,
        action=seg.code,
        action_title="Segment",
        establishment="",
        establishment_name=f"Sewer segment {seg.code}",
        case="",
        citation=cites,
        overdue=True,
        why=why,
        href=reverse("web:segment", kwargs={"segment": seg.pk}),
    )


def _undone(name: str, action: EnforcementAction, actions: list, due: Entry) -> str:
    """Why a passed deadline named `hearing` or `decision` is overdue on the agency's side
    (empty when the act was recorded, or the deadline is the operator's)."""
    hearings = [a for a in actions if a.type == HEARING and a.refers_to_id == action.pk]
    if name == "hearing":
        fields = action.effective_fields(list(action.facts.all()))
        held = [str(fields[f])[:10] for f in HEARD_FIELDS if fields.get(f)]
        held += [str(h.fields["hearing_on"])[:10] for h in hearings if h.fields.get("hearing_on")]
        if not held:
            return f"No hearing on {action.code} was set by {due.shown}."
        if min(held) > due.day.isoformat():
            return f"The hearing on {action.code} was set for {min(held)}, after {due.shown}."
        return ""
    if name == "decision":
        heard = {action.pk, *(h.pk for h in hearings)}
        decided = any(
            policy.action_kind(a.type) == "decision"
            and a.type not in STEPS
            and (
                a.refers_to_id in heard
                or (a.refers_to_id is None and a.taken_on >= action.taken_on)
            )
            for a in actions
        )
        return "" if decided else f"No decision on {action.code} was recorded by {due.shown}."
    return ""


# -- pages and exports -------------------------------------------------------------------------


def _asked(request) -> tuple[CalendarForm, int, list[str]]:
    """The filters asked (`weeks`, `kind`): the default 4 weeks and every kind when refused."""
    form = CalendarForm(request.GET)
    if not form.is_valid():
        return form, DEFAULT_WEEKS, []
    return form, form.cleaned_data["weeks"] or DEFAULT_WEEKS, form.cleaned_data["kind"]


def _calendar(request) -> tuple[CalendarForm, Calendar]:
    form, weeks, kinds = _asked(request)
    as_of = page_as_of(request)
    now = timezone.now() if as_of == timezone.localdate() else None
    return form, legal_calendar(
        agency=request.agency, as_of=as_of, weeks=weeks, kinds=kinds, now=now
    )


@agency_page
@reads_only
def calendar_page(request):
    """The calendar by day, the overdue first; a refused filter is said on its field (400)."""
    form, cal = _calendar(request)
    page = Paginator(cal.entries, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    days = [(day, list(items)) for day, items in groupby(page.object_list, key=lambda e: e.day)]
    context = {
        "cal": cal,
        "form": form,
        "page": page,
        "days": days,
        "query": query.urlencode(),
        "kinds": KINDS,
        "as_of": request.GET.get("as_of", ""),
        "weeks": request.GET.get("weeks", "") or DEFAULT_WEEKS,
        "reports_to_state": of_agency(request.agency) is not None,
    }
    return render(
        request, "web/enforcement/calendar.html", context, status=400 if form.errors else 200
    )


def _refused(form: CalendarForm) -> HttpResponse:
    text = " ".join(str(m) for messages in form.errors.values() for m in messages)
    return HttpResponse(text, status=400, content_type="text/plain; charset=utf-8")


def _case_url(request, entry: Entry) -> str:
    return request.build_absolute_uri(
        entry.href or reverse("web:case", kwargs={"code": entry.establishment, "case": entry.case})
    )


def _filename(cal: Calendar, agency: Agency, ext: str) -> str:
    return f"{agency.code}-legal-calendar-{cal.as_of.isoformat()}.{ext}"


@agency_page
@reads_only
def calendar_csv(request):
    """The entries shown, one row each, with a header row."""
    form, cal = _calendar(request)
    if form.errors:
        return _refused(form)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = _filename(cal, request.agency, "csv")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    writer = csv.writer(response)
    writer.writerow(CSV_COLUMNS)
    for e in cal.entries:
        row = [
            e.day.isoformat(),
            e.at.strftime("%H:%M") if e.at else "",
            e.kind,
            "yes" if e.overdue else "",
            e.what,
            e.action,
            e.action_title,
            e.establishment,
            e.establishment_name,
            e.case,
            e.citation,
            e.why,
            _case_url(request, e),
        ]
        writer.writerow([neutralise(str(v)) for v in row])
    return response


def _event(request, entry: Entry, stamp: datetime) -> icalendar.Event:
    event = icalendar.Event()
    event.add("uid", entry.uid(request.agency))
    event.add("dtstamp", stamp)
    event.add("dtstart", entry.at or entry.day)
    mark = "Overdue: " if entry.overdue else ""
    of = f"case {entry.case}" if entry.case else f"{entry.action_title} {entry.action}"
    event.add("summary", f"{mark}{entry.what}: {entry.establishment_name} ({of})")
    lines = [
        f"{entry.action_title} {entry.action}, case {entry.case} of {entry.establishment_name} "
        f"({entry.establishment})."
        if entry.case
        else f"{entry.action_title} {entry.action}: {entry.establishment_name}.",
        f"Citation: {entry.citation}" if entry.citation else "",
        entry.why,
        _case_url(request, entry),
    ]
    event.add("description", "\n".join(line for line in lines if line))
    event.add("url", _case_url(request, entry))
    event.add("categories", sorted(entry.kinds))
    return event


@agency_page
@reads_only
def calendar_ics(request):
    """The entries shown as an iCalendar file: all-day events for dates, events at the hour
    (with the pack's time zone) for hour-based deadlines, each with a UID that stays the same
    from one download to the next so a calendar application updates rather than duplicates."""
    form, cal = _calendar(request)
    if form.errors:
        return _refused(form)
    agency = request.agency
    out = icalendar.Calendar()
    out.add("prodid", "-//fogkeeper//legal calendar//EN")
    out.add("version", "2.0")
    out.add("x-wr-calname", f"{agency.name}: legal calendar")
    stamp = timezone.now()
    for entry in cal.entries:
        out.add_component(_event(request, entry, stamp))
    out.add_missing_timezones()
    response = HttpResponse(out.to_ical(), content_type="text/calendar; charset=utf-8")
    name = _filename(cal, agency, "ics")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response

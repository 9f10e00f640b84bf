"""Reads for the staff pages, each in a fixed number of queries whatever the agency's size."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import CharField, Count, Exists, F, OuterRef, Q, Subquery, Value, Window
from django.db.models.functions import RowNumber
from django.http import Http404

from fogkeeper.compliance.models import ComplianceRate, ComplianceStatus, Finding, ScheduleItem
from fogkeeper.compliance.rates import month_end, month_ends_before, rate_counts
from fogkeeper.enforcement.models import EnforcementAction, EnforcementCase, Letter
from fogkeeper.incidents.models import Incident
from fogkeeper.inspections.models import Inspection, Measurement
from fogkeeper.maintenance.models import Service, ServiceDispute
from fogkeeper.permits.models import Permit
from fogkeeper.registry.models import (
    Agency,
    FoodServiceEstablishment,
    GreaseControlDevice,
    Lateral,
)
from fogkeeper.rules.report import STATUSES
from fogkeeper.training.models import Training

from .templatetags.words import pack_title

INSPECTION_WEEK = timedelta(days=6)  # the field list's week ahead

SORTS = {
    "name": ("name", "code"),
    "code": ("code",),
    "status": ("compliance__status", "name"),
    "next_due": ("compliance__next_due", "name"),
    "violations": ("compliance__open_violations", "name"),
}
FILTERS = (
    "q",
    "status",
    "rule",
    "device",
    "segment",
    "due_by",
    "obligation",
    "due_from",
    "due_to",
    "overflow_since",
)
RECENT_OVERFLOW_DAYS = 30


def _date(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def establishment_list(*, agency: Agency, params: dict[str, str]):
    """The agency's establishments filtered and sorted as `params` ask (see FILTERS, SORTS),
    each with its compliance status and the number of its permit in force."""
    active_permit = Permit.objects.filter(establishment=OuterRef("pk"), status="active").order_by(
        "-issued_on", "-id"
    )
    qs = (
        FoodServiceEstablishment.objects.filter(agency=agency)
        .select_related("compliance")
        .annotate(permit_number=Subquery(active_permit.values("number")[:1]))
    )
    if q := params.get("q", "").strip():
        qs = qs.filter(
            Q(name__icontains=q)
            | Q(code__icontains=q)
            | Q(address__icontains=q)
            | Exists(Permit.objects.filter(establishment=OuterRef("pk"), number__icontains=q))
        )
    if status := params.get("status"):
        qs = qs.filter(compliance__status=status)
    if rule := params.get("rule"):
        qs = qs.filter(
            Exists(Finding.objects.filter(establishment=OuterRef("pk"), open=True, rule=rule))
        )
    if kind := params.get("device"):
        devices = GreaseControlDevice.objects.filter(
            establishment=OuterRef("pk"), kind=kind, removed_on__isnull=True
        )
        qs = qs.filter(Exists(devices))
    if segment := params.get("segment"):
        laterals = Lateral.objects.filter(establishment=OuterRef("pk"), segment__code=segment)
        qs = qs.filter(Exists(laterals))
    if due_by := _date(params.get("due_by")):
        qs = qs.filter(compliance__next_due__lte=due_by)
    if since := _date(params.get("overflow_since")):
        overflows = Incident.objects.filter(establishment=OuterRef("pk"), date__gte=since)
        qs = qs.filter(Exists(overflows))
    if obligation := params.get("obligation"):
        scheduled = _scheduled(
            agency, obligation, _date(params.get("due_from")), _date(params.get("due_to"))
        )
        qs = qs.filter(Exists(scheduled.filter(establishment=OuterRef("pk"))))
    sort = params.get("sort", "name")
    fields = SORTS.get(sort.removeprefix("-"), SORTS["name"])
    if sort.startswith("-"):
        return qs.order_by(*(f"-{f}" for f in fields))
    return qs.order_by(*fields)


@dataclass
class Shown:
    """An establishment's status on the day a list is shown as of."""

    status: str
    open_violations: int
    next_due: date | None


def shown_on(*, agency: Agency, establishments, as_of: date) -> None:
    """Give each of `establishments` (a page of a list) what the engine says of it on
    `as_of` (`fse.shown`), where that is not the day of its last evaluation (the stored
    status, which the filters and the sorting read)."""
    from fogkeeper.compliance.casefiles import build_case_files
    from fogkeeper.rules import evaluate

    rows = [f for f in establishments if getattr(_stored(f), "as_of", None) != as_of]
    cases = build_case_files(agency, [f.pk for f in rows], as_of) if rows else {}
    for fse in rows:
        if fse.pk not in cases:
            continue
        report = evaluate(cases[fse.pk], as_of)
        dues = [item.due for item in report.schedule]
        fse.shown = Shown(report.status, len(report.open_violations()), min(dues, default=None))


def _stored(fse) -> ComplianceStatus | None:
    try:
        return fse.compliance
    except ComplianceStatus.DoesNotExist:
        return None


def _scheduled(agency: Agency, obligation: str, start: date | None, end: date | None):
    """Schedule items of `obligation` due from `start` through `end` (either open-ended)."""
    items = ScheduleItem.objects.filter(agency=agency, obligation=obligation)
    if start is not None:
        items = items.filter(due__gte=start)
    if end is not None:
        items = items.filter(due__lte=end)
    return items


def rule_title(pack, rule: str) -> str:
    """The pack's title of a rule or the question of a checklist item (templatetags.words:
    the one place identifiers become the pack's words)."""
    return pack_title(pack, rule)


def filter_choices(*, agency: Agency) -> dict[str, list]:
    pack = agency.get_pack()
    statuses = ComplianceStatus.objects.filter(establishment__agency=agency)
    present = Agency.objects.filter(pk=agency.pk).values(
        **{s: Exists(statuses.filter(status=s)) for s in STATUSES}
    )
    return {
        "statuses": sorted(s for s, there in present.get().items() if there),
        "rules": sorted(
            ((rule, rule_title(pack, rule)) for rule in [*pack.rules, *pack.checklist]),
            key=lambda pair: pair[1],
        ),
        "segments": list(agency.sewer_segments.values_list("code", flat=True)),
        "device_kinds": [(kind, vocab.title) for kind, vocab in pack.device_kinds.items()],
    }


@dataclass
class Dashboard:
    as_of: date
    overdue_pump_outs: int
    violations_by_rule: list[dict[str, Any]]
    permits_expired: int
    permits_to_renew: int
    renew_by: date
    inspections_due: int
    inspections_this_week: int
    month_start: date
    month_end: date
    calendar: list[dict[str, Any]]
    overflows: list[Incident]
    overflow_since: date
    compliance_rate: list[dict[str, Any]] = field(default_factory=list)
    spill_reports: list = field(default_factory=list)  # reporting.spills.SpillReport
    cleanings_overdue: list = field(default_factory=list)  # sewers.selectors.SegmentState
    cleaning_citation: str = ""

    @property
    def spill_reports_late(self) -> int:
        return sum(r.deadline.late for r in self.spill_reports)


def dashboard(*, agency: Agency, as_of: date) -> Dashboard:
    from fogkeeper.compliance.reports import agency_calendar
    from fogkeeper.reporting.spills import reports_due
    from fogkeeper.sewers.selectors import CITATION, cleanings_overdue

    pack = agency.get_pack()
    by_rule = violations_by_rule(agency=agency, on=as_of)
    violations = [
        {"rule": rule, "title": rule_title(pack, rule), "count": n}
        for rule, n in sorted(by_rule.items())
    ]
    start = as_of.replace(day=1)
    end = month_end(as_of)
    renew_by = month_end(end + timedelta(days=1))
    overflow_since = as_of - timedelta(days=RECENT_OVERFLOW_DAYS)
    renewals = ScheduleItem.objects.filter(
        agency=agency, obligation="permit.renewal_application", due__lte=renew_by
    ).aggregate(n=Count("establishment_id", distinct=True))
    due_now, due_this_week = inspections_due(agency=agency, as_of=as_of)
    return Dashboard(
        as_of=as_of,
        overdue_pump_outs=by_rule.get("gcd.service_overdue", 0),
        violations_by_rule=violations,
        permits_expired=by_rule.get("permit.expired", 0),
        permits_to_renew=renewals["n"],
        renew_by=renew_by,
        inspections_due=due_now,
        inspections_this_week=due_this_week,
        month_start=start,
        month_end=end,
        calendar=_with_codes(agency, agency_calendar(agency=agency, as_of=as_of, weeks=1)),
        overflows=list(
            Incident.objects.filter(agency=agency, date__gte=overflow_since, date__lte=as_of)
            .select_related("establishment")
            .order_by("-date", "code")
        ),
        overflow_since=overflow_since,
        compliance_rate=compliance_rate(agency=agency, as_of=as_of),
        spill_reports=reports_due(
            agency=agency, as_of=as_of, start=as_of, end=as_of + timedelta(days=7)
        ),
        cleanings_overdue=cleanings_overdue(agency=agency, as_of=as_of),
        cleaning_citation=CITATION,
    )


def violations_by_rule(*, agency: Agency, on: date) -> dict[str, int]:
    """How many establishments had a violation of each rule open on `on`, as the stored
    findings say (open that day: found since then, and not closed by then; rates.py)."""
    open_on = Q(since__lte=on) & (Q(closed_on__isnull=True) | Q(closed_on__gt=on))
    return dict(
        Finding.objects.filter(open_on, agency=agency, severity="violation")
        .order_by()
        .values_list("rule")
        .annotate(n=Count("establishment_id", distinct=True))
    )


def inspections_due_by(agency: Agency, as_of: date):
    """The agency's open establishments with an inspection due by the end of the week ahead
    (the earliest inspection of the schedule, stored by the sweep): the field list's."""
    return FoodServiceEstablishment.objects.filter(
        agency=agency,
        closed_on__isnull=True,
        compliance__next_inspection_due__lte=as_of + INSPECTION_WEEK,
    )


def inspections_due(*, agency: Agency, as_of: date) -> tuple[int, int]:
    """(due on `as_of` or overdue, due in the six days after): the field list's two sections
    and the dashboard's figures, counted in one query."""
    today = Q(compliance__next_inspection_due__lte=as_of)
    counts = inspections_due_by(agency, as_of).aggregate(
        today=Count("pk", filter=today), week=Count("pk", filter=~today)
    )
    return counts["today"], counts["week"]


def _with_codes(agency: Agency, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Calendar entries name the establishment by its code (the case file's id): add its name."""
    codes = {i["establishment"] for i in items}
    names = dict(
        FoodServiceEstablishment.objects.filter(agency=agency, code__in=codes).values_list(
            "code", "name"
        )
    )
    for item in items:
        item["code"] = item["establishment"]
        item["fse_name"] = names.get(item["establishment"], "")
    return items


def compliance_rate(*, agency: Agency, as_of: date, months: int = 12) -> list[dict[str, Any]]:
    """For each of the last `months` month ends (the last one `as_of`): the share of open
    establishments without an open violation that day, from the stored findings. The month
    ends come from the rates the agency's sweep stored; `as_of` and any month end no sweep
    has stored are counted (compliance/rates.py)."""
    days = [as_of, *month_ends_before(as_of, months - 1)]
    stored = {
        day: (active, compliant)
        for day, active, compliant in ComplianceRate.objects.filter(
            agency=agency, date__in=days[1:]
        ).values_list("date", "active", "compliant")
    }
    stored |= rate_counts(agency=agency, days=[d for d in days if d not in stored])
    out = []
    for day in reversed(days):
        active, compliant = stored[day]
        rate = round(100 * compliant / active, 1) if active else None
        out.append({"date": day, "rate": rate, "active": active})
    return out


SHOWN = 25  # the rows of a long list a page shows at a time (issue 15, item 7)
READINGS = 25  # the most recent accumulation readings of a device its page charts and lists


def section(rows, number, per: int = SHOWN) -> Page:
    """One page of a long list of a page's section (`?<section>_page=`): counted and sliced
    in SQL, never the whole list loaded."""
    return Paginator(rows, per).get_page(number)


@dataclass
class EstablishmentPage:
    establishment: FoodServiceEstablishment
    compliance: ComplianceStatus | None
    findings: list[dict[str, Any]]
    permit: Permit | None
    devices: list[dict[str, Any]]  # each with its READINGS most recent readings, and the count
    timeline: Page  # of dicts: date, kind, text (and service)
    cases: list[EnforcementCase]
    actions: Page
    letters: Page
    services: int = 0  # pump-outs on record, of every device


def establishment_page(
    *, agency: Agency, code: str, upto: date | None = None, pages: dict | None = None
) -> EstablishmentPage:
    """One establishment of `agency` (404 for any other agency's) with what its page shows:
    its long lists (timeline, actions, letters) a page each (`pages`: the page number asked
    for each, by name), the timeline up to `upto` where given."""
    pages = pages or {}
    fse = (
        FoodServiceEstablishment.objects.filter(agency=agency, code=code)
        .select_related("compliance")
        .first()
    )
    if fse is None:
        raise Http404("no such establishment")
    fse.agency = agency  # the page reads the pack's words through it
    pack = agency.get_pack()
    findings = [
        {"finding": f, "title": rule_title(pack, f.rule)}
        for f in Finding.objects.filter(establishment=fse, open=True).order_by("since", "rule")
    ]
    devices = list(
        GreaseControlDevice.objects.select_related("establishment__agency")
        .filter(establishment=fse)
        .order_by("code")
    )
    readings, totals, services = _recent_readings(fse, devices)
    actions = section(
        EnforcementAction.objects.filter(establishment=fse)
        .select_related("case")
        .prefetch_related("answers")
        .order_by("-taken_on", "-pk"),
        pages.get("actions"),
    )
    letters = section(
        Letter.objects.filter(action__establishment=fse)
        .select_related("action")
        .defer("pdf")
        .order_by("-created_at", "-pk"),
        pages.get("letters"),
    )
    try:
        compliance = fse.compliance
    except ComplianceStatus.DoesNotExist:
        compliance = None
    return EstablishmentPage(
        establishment=fse,
        compliance=compliance,
        findings=findings,
        permit=Permit.objects.filter(establishment=fse, status="active")
        .order_by("-issued_on", "-id")
        .first(),
        devices=[
            {"device": d, "readings": readings[d.pk], "readings_total": totals.get(d.pk, 0)}
            for d in devices
        ],
        timeline=timeline_page(fse, pack, upto=upto, number=pages.get("timeline")),
        cases=list(EnforcementCase.objects.filter(establishment=fse).order_by("opened_on")),
        actions=actions,
        letters=letters,
        services=services,
    )


def _recent_readings(fse, devices) -> tuple[dict[int, list[dict[str, Any]]], dict[int, int], int]:
    """The READINGS most recent readings of each device (pump-outs and inspections' measures,
    newest first), taken per device in SQL; how many each device has in all; and how many
    pump-outs the establishment has."""
    newest = [F("date").desc(), F("pk").desc()]
    services = (
        Service.objects.filter(device__establishment=fse)
        .annotate(n=Window(RowNumber(), partition_by=[F("device_id")], order_by=newest))
        .filter(n__lte=READINGS)
    )
    by_day = [F("inspection__date").desc(), F("pk").desc()]
    measurements = (
        Measurement.objects.filter(device__establishment=fse)
        .select_related("inspection")
        .annotate(n=Window(RowNumber(), partition_by=[F("device_id")], order_by=by_day))
        .filter(n__lte=READINGS)
    )
    readings: dict[int, list[dict[str, Any]]] = {d.pk: [] for d in devices}
    for s in services:
        readings[s.device_id].append(
            {"date": s.date, "source": f"Service, manifest {s.manifest_number}",
             "fog": s.fog_inches, "solids": s.solids_inches}
        )  # fmt: skip
    for m in measurements:
        readings[m.device_id].append(
            {"date": m.inspection.date, "source": f"Inspection {m.inspection.code}",
             "fog": m.fog_inches, "solids": m.solids_inches}
        )  # fmt: skip
    for rows in readings.values():
        rows.sort(key=lambda r: r["date"], reverse=True)
        del rows[READINGS:]
    totals: dict[int, int] = {}
    services_count = 0
    for model in (Service, Measurement):
        counted = (
            model.objects.filter(device__establishment=fse)
            .order_by()
            .values_list("device_id")
            .annotate(n=Count("pk"))
        )
        for pk, n in counted:
            totals[pk] = totals.get(pk, 0) + n
            services_count += n if model is Service else 0
    return readings, totals, services_count


# what the timeline holds: (kind, model, date field, the path to the establishment)
TIMELINE = (
    ("Service", Service, "date", "device__establishment"),
    ("Inspection", Inspection, "date", "establishment"),
    ("Incident", Incident, "date", "establishment"),
    ("Permit", Permit, "issued_on", "establishment"),
    ("Training", Training, "date", "establishment"),
    ("Enforcement", EnforcementAction, "taken_on", "establishment"),
)


def timeline_page(fse, pack, *, upto: date | None = None, number=None) -> Page:
    """One page of the establishment's records of every kind, newest first: the kinds'
    (date, kind, id) united, counted and sliced in SQL; then the page's own records read,
    one query per kind on it."""
    parts = []
    for kind, model, day, path in TIMELINE:
        qs = model.objects.filter(**{path: fse})
        if upto is not None:
            qs = qs.filter(**{f"{day}__lte": upto})
        parts.append(
            qs.order_by()
            .annotate(day=F(day), record=Value(kind, output_field=CharField()))
            .values("day", "record", "pk")
        )
    united = parts[0].union(*parts[1:], all=True).order_by("-day", "record", "-pk")
    page = section(united, number)
    page.object_list = _timeline_items(list(page.object_list), pack)
    return page


def _timeline_items(rows: list[dict[str, Any]], pack) -> list[dict[str, Any]]:
    wanted: dict[str, list[int]] = {}
    for row in rows:
        wanted.setdefault(row["record"], []).append(row["pk"])
    open_dispute = ServiceDispute.objects.filter(service=OuterRef("pk"), withdrawn_on=None)
    read = {
        "Service": lambda ids: (
            Service.objects.filter(pk__in=ids)
            .select_related("hauler", "device")
            .annotate(disputed_on=Subquery(open_dispute.values("raised_on")[:1]))
        ),
        "Enforcement": lambda ids: EnforcementAction.objects.filter(pk__in=ids).select_related(
            "case"
        ),
    }
    models = {kind: model for kind, model, _day, _path in TIMELINE}
    records = {}
    for kind, ids in wanted.items():
        rows_of_kind = read[kind](ids) if kind in read else models[kind].objects.filter(pk__in=ids)
        records[kind] = {r.pk: r for r in rows_of_kind}
    items = []
    for row in rows:
        kind, r = row["record"], records[row["record"]][row["pk"]]
        items.append({"date": row["day"], "kind": kind, **_said(kind, r, pack)})
    return items


def _said(kind: str, r, pack) -> dict[str, Any]:
    if kind == "Service":
        by = f" by {r.hauler.name}" if r.hauler else ""
        return {"text": f"{r.device.code} pumped out, manifest {r.manifest_number}{by}",
                "service": r}  # fmt: skip
    if kind == "Inspection":
        return {"text": f"Inspection {r.code}"}
    if kind == "Incident":
        return {"text": f"{r.kind.capitalize()} {r.code}"}
    if kind == "Permit":
        return {"text": f"Permit {r.number} issued to {r.holder}"}
    if kind == "Training":
        return {"text": f"Training {r.code}"}
    return {"text": f"{pack_title(pack, r.type)} ({r.code}, case {r.case.code})"}

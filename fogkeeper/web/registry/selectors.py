"""Reads of the establishment pages, each in a fixed number of queries whatever the agency's
size: the agency's establishments filtered and sorted (FILTERS, SORTS; the communications'
recipients are chosen by the same filters), their status on another day than the stored
one, and one establishment's page: its findings, permit, devices with their recent readings,
cases, actions, letters and its timeline of records of every kind, a page at a time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.core.paginator import Page
from django.db.models import CharField, Count, Exists, F, OuterRef, Q, Subquery, Value, Window
from django.db.models.functions import RowNumber
from django.http import Http404

from fogkeeper.compliance.models import ComplianceStatus, Finding, ScheduleItem
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

from ..common.selectors import section
from ..templatetags.words import pack_title

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
    from fogkeeper.compliance.casefiles.as_json import build_case_files
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


def filter_choices(*, agency: Agency) -> dict[str, list]:
    pack = agency.get_pack()
    statuses = ComplianceStatus.objects.filter(establishment__agency=agency)
    present = Agency.objects.filter(pk=agency.pk).values(
        **{s: Exists(statuses.filter(status=s)) for s in STATUSES}
    )
    return {
        "statuses": sorted(s for s, there in present.get().items() if there),
        "rules": sorted(
            ((rule, pack_title(pack, rule)) for rule in [*pack.rules, *pack.checklist]),
            key=lambda pair: pair[1],
        ),
        "segments": list(agency.sewer_segments.values_list("code", flat=True)),
        "device_kinds": [(kind, vocab.title) for kind, vocab in pack.device_kinds.items()],
    }


READINGS = 25  # the most recent accumulation readings of a device its page charts and lists


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
        {"finding": f, "title": pack_title(pack, f.rule)}
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
            {
                "date": s.date,
                "source": f"Service, manifest {s.manifest_number}",
                "fog": s.fog_inches,
                "solids": s.solids_inches,
            }
        )
    for m in measurements:
        readings[m.device_id].append(
            {
                "date": m.inspection.date,
                "source": f"Inspection {m.inspection.code}",
                "fog": m.fog_inches,
                "solids": m.solids_inches,
            }
        )
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
        return {
            "text": f"{r.device.code} pumped out, manifest {r.manifest_number}{by}",
            "service": r,
        }
    if kind == "Inspection":
        return {"text": f"Inspection {r.code}"}
    if kind == "Incident":
        return {"text": f"{r.kind.capitalize()} {r.code}"}
    if kind == "Permit":
        return {"text": f"Permit {r.number} issued to {r.holder}"}
    if kind == "Training":
        return {"text": r.topic + (f", given by {r.trainer}" if r.trainer else "")}
    return {"text": f"{pack_title(pack, r.type)} ({r.code}, case {r.case.code})"}

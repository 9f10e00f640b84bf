"""Reads of the establishment pages, each in a fixed number of queries whatever the agency's
size: the agency's establishments filtered and sorted (FILTERS, SORTS; the communications'
recipients are chosen by the same filters), their status on another day than the stored
one, and one establishment's page: its findings, permit, devices with their recent readings,
cases, actions, letters and its timeline of records of every kind, a page at a time."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import (
    CharField,
    DateField,
    Exists,
    F,
    Func,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Cast, Coalesce, JSONObject
from django.http import Http404

from fogkeeper.billing.models import Invoice
from fogkeeper.communications.selectors import sent_to
from fogkeeper.compliance.models import ComplianceStatus, Finding, ScheduleItem
from fogkeeper.enforcement.models import (
    EnforcementAction,
    EnforcementCase,
    Letter,
    NoticeAnswer,
)
from fogkeeper.incidents.models import Incident
from fogkeeper.inspections.models import (
    Inspection,
    Measurement,
    Sample,
)
from fogkeeper.maintenance.models import Service, ServiceDispute
from fogkeeper.permits.models import Permit, PlanReview
from fogkeeper.registry.models import (
    Agency,
    FoodServiceEstablishment,
    GreaseControlDevice,
    Lateral,
    Operator,
    OperatorTenure,
    ServiceContract,
)
from fogkeeper.rules.report import STATUSES
from fogkeeper.training.models import Employee, Training

from ..common.paging import SHOWN, section
from ..templatetags.words import pack_title
from .carried import JSONRows, instance, instances, json_rows

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
    counts: dict[str, int] = field(default_factory=dict)  # of each section's rows (COUNTED)
    permits: list[Permit] = field(default_factory=list)  # every permit, newest issued first
    tenure: OperatorTenure | None = None  # who operates it now
    listed: dict[str, list] = field(default_factory=dict)  # plan reviews, contracts, laterals


def _counted(as_of: date, upto: date | None) -> dict[str, QuerySet]:
    """The rows of the establishment (OuterRef "pk") the page counts: what its sections' pages
    are cut from, and the few rows (trainings, invoices) not asked for when there are none."""
    fse = OuterRef("pk")
    timeline = {}
    for kind, model, day, path in TIMELINE:
        rows = model.objects.filter(**{path: fse})
        timeline[f"timeline_{kind}"] = rows.filter(**{f"{day}__lte": upto}) if upto else rows
    return {
        **timeline,
        "actions": EnforcementAction.objects.filter(establishment=fse),
        "letters": Letter.objects.filter(action__establishment=fse),
        "inspections": Inspection.objects.filter(establishment=fse),
        "inspections_shown": Inspection.objects.filter(establishment=fse, date__lte=as_of),
        "samples": Sample.objects.filter(establishment=fse),
        "trainings": Training.objects.filter(establishment=fse),
        "training_logs": Training.objects.filter(establishment=fse).exclude(log=""),
        "incidents": Incident.objects.filter(establishment=fse),
        "communications": sent_to(fse),
        "invoices": Invoice.objects.filter(establishment=fse),
    }


def _count(rows: QuerySet) -> Subquery:
    """How many `rows` there are, as a subquery of one row (COUNT without a GROUP BY)."""
    counted = rows.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n")
    return Subquery(counted, output_field=IntegerField())


def _carried() -> dict[str, Any]:
    """The establishment's (OuterRef "pk") short lists, each read as JSON in its own row's
    query (carried.py): its open findings, permits, cases, service contracts, laterals, plan
    reviews, the names of its employees and trainings, and its devices with their counts and
    most recent readings."""
    fse = OuterRef("pk")
    names = Employee.objects.filter(establishment=fse).values(
        row=JSONObject(code="code", said="name")
    )
    trainings = Training.objects.filter(establishment=fse)
    trained = trainings.values(row=JSONObject(code="code", said=Cast("date", CharField())))
    return {
        "findings": json_rows(
            Finding.objects.filter(establishment=fse, open=True).order_by("since", "rule")
        ),
        "permits": json_rows(
            Permit.objects.filter(establishment=fse).order_by("-issued_on", "-id")
        ),
        "cases": json_rows(EnforcementCase.objects.filter(establishment=fse).order_by("opened_on")),
        "contracts": json_rows(ServiceContract.objects.filter(establishment=fse), ("hauler",)),
        "laterals": json_rows(
            Lateral.objects.filter(establishment=fse).order_by("pk"), ("segment",)
        ),
        "plan_reviews": json_rows(PlanReview.objects.filter(establishment=fse)),
        "employee_names": JSONRows(names),
        "training_names": JSONRows(trained),
        "devices": _devices(),
    }


def _establishment(
    agency: Agency, code: str, as_of: date, upto: date | None
) -> tuple[FoodServiceEstablishment, dict[str, int], OperatorTenure | None]:
    """The establishment with its stored status, the count of each of its sections' rows,
    its current operator and its short lists (_carried), in one query."""
    tenure = OperatorTenure.objects.filter(establishment=OuterRef("pk"), until__isnull=True)
    tenure = tenure.order_by("-since")
    fields = {"pk": "pk", "operator_id": "operator_id", "since": "since", "name": "operator__name"}
    counted = _counted(as_of, upto)
    fse: Any = (
        FoodServiceEstablishment.objects.filter(agency=agency, code=code)
        .select_related("compliance")
        .annotate(**{f"n_{name}": _count(rows) for name, rows in counted.items()})
        .annotate(**{f"tenure_{k}": Subquery(tenure.values(v)[:1]) for k, v in fields.items()})
        .annotate(**{f"carried_{k}": rows for k, rows in _carried().items()})
        .first()
    )
    if fse is None:
        raise Http404("no such establishment")
    fse.agency = agency  # the page reads the pack's words through it
    counts = {name: getattr(fse, f"n_{name}") for name in counted}
    counts["timeline"] = sum(counts.pop(f"timeline_{k}") for k, *_ in TIMELINE)
    if fse.tenure_pk is None:
        return fse, counts, None
    current = OperatorTenure(
        pk=fse.tenure_pk,
        establishment=fse,
        operator_id=fse.tenure_operator_id,
        since=fse.tenure_since,
    )
    current.operator = Operator(pk=fse.tenure_operator_id, name=fse.tenure_name)
    return fse, counts, current


def _subject_names(fse) -> None:
    """The names web.vocabulary.subject_names gives a finding's subject: the establishment's,
    its employees' and its trainings' (read with the establishment)."""
    names = {fse.code: fse.name}
    for row in fse.carried_employee_names or []:
        names[row["code"]] = row["said"]
    for row in fse.carried_training_names or []:
        names[row["code"]] = f"the training of {row['said']}"
    fse._subject_names = names


def counted_section(rows, number, count: int) -> Page:
    """A page of a long section (common.selectors.section) whose rows are counted already."""
    paginator = Paginator(rows, SHOWN)
    paginator.__dict__["count"] = count  # Paginator.count, a cached property, read already
    return paginator.get_page(number)


def establishment_page(
    *,
    agency: Agency,
    code: str,
    as_of: date | None = None,
    upto: date | None = None,
    pages: dict | None = None,
) -> EstablishmentPage:
    """One establishment of `agency` (404 for any other agency's) with what its page shows:
    its long lists (timeline, actions, letters) a page each (`pages`: the page number asked
    for each, by name), the timeline up to `upto` where given, its inspections counted up to
    `as_of`. Each kind of record is read in one query, none where the counts say none."""
    pages = pages or {}
    fse, counts, tenure = _establishment(agency, code, as_of or upto or date.max, upto)
    _subject_names(fse)
    carried = {name: getattr(fse, f"carried_{name}") for name in _carried()}
    pack = agency.get_pack()
    findings = [
        {"finding": f, "title": pack_title(pack, f.rule)}
        for f in instances(Finding, carried["findings"])
    ]
    devices = _device_rows(fse)
    actions = counted_section(_actions(fse), pages.get("actions"), counts["actions"])
    if counts["actions"]:
        _answered(actions)
    letters = counted_section(
        Letter.objects.filter(action__establishment=fse)
        .select_related("action")
        .defer("pdf")
        .order_by("-created_at", "-pk"),
        pages.get("letters"),
        counts["letters"],
    )
    try:
        compliance = fse.compliance
    except ComplianceStatus.DoesNotExist:
        compliance = None
    permits = instances(Permit, carried["permits"])
    return EstablishmentPage(
        establishment=fse,
        compliance=compliance,
        findings=findings,
        permit=next((p for p in permits if p.status == "active"), None),
        devices=devices,
        timeline=timeline_page(
            fse, pack, upto=upto, number=pages.get("timeline"), count=counts["timeline"]
        ),
        cases=instances(EnforcementCase, carried["cases"]),
        actions=actions,
        letters=letters,
        services=sum(d["device"].n_services for d in devices),
        counts=counts,
        permits=permits,
        tenure=tenure,
        listed={
            "plan_reviews": instances(PlanReview, carried["plan_reviews"]),
            "contracts": instances(ServiceContract, carried["contracts"], ("hauler",)),
            "laterals": instances(Lateral, carried["laterals"], ("segment",)),
        },
    )


def _actions(fse) -> QuerySet:
    """The establishment's enforcement actions, newest first, each with its case and the
    operator's answers to it (as JSON, _answered)."""
    answers = NoticeAnswer.objects.filter(action=OuterRef("pk")).order_by("answered_on", "pk")
    return (
        EnforcementAction.objects.filter(establishment=fse)
        .select_related("case")
        .annotate(answer_rows=json_rows(answers))
        .order_by("-taken_on", "-pk")
    )


def _answered(actions: Page) -> None:
    """Each action of the page with its answers as `action.answers.all()` gives them."""
    actions.object_list = list(actions.object_list)
    for action in actions.object_list:
        answers = action.answers.all()
        answers._result_cache = instances(NoticeAnswer, action.answer_rows)
        answers._prefetch_done = True
        action._prefetched_objects_cache = {"answers": answers}


def _devices() -> JSONRows:
    """The establishment's (OuterRef "pk") devices as JSON, each with how many pump-outs and
    measurements it has and the READINGS most recent of each (newest first)."""
    device = OuterRef("pk")
    services = Service.objects.filter(device=device)
    measured = Measurement.objects.filter(device=device)
    said = {"fog": Cast("fog_inches", CharField()), "solids": Cast("solids_inches", CharField())}
    pumped = services.order_by("-date", "-pk").values(
        row=JSONObject(date="date", manifest="manifest_number", **said)
    )
    inspected = measured.order_by("-inspection__date", "-pk").values(
        row=JSONObject(date="inspection__date", code="inspection__code", **said)
    )
    devices = GreaseControlDevice.objects.filter(establishment=OuterRef("pk"))
    return json_rows(
        devices.order_by("code"),
        n_services=_count(services),
        n_measured=_count(measured),
        pumped=JSONRows(pumped[:READINGS]),
        inspected=JSONRows(inspected[:READINGS]),
    )


def _device_rows(fse) -> list[dict[str, Any]]:
    """Each device of the establishment with its READINGS most recent readings (pump-outs
    and inspections' measures, newest first) and how many it has."""
    rows = []
    for data in fse.carried_devices or []:
        device = instance(GreaseControlDevice, data)
        device.establishment = fse  # its kind's title is in the establishment's agency's pack
        device.n_services, device.n_measured = data["n_services"], data["n_measured"]
        readings = [
            _reading(r, f"Service, manifest {r['manifest']}") for r in data["pumped"] or []
        ] + [_reading(r, f"Inspection {r['code']}") for r in data["inspected"] or []]
        readings.sort(key=lambda r: r["date"], reverse=True)
        rows.append(
            {
                "device": device,
                "readings": readings[:READINGS],
                "readings_total": device.n_services + device.n_measured,
            }
        )
    return rows


def _reading(row: dict[str, Any], source: str) -> dict[str, Any]:
    def inches(text):  # to the hundredth the readings keep (SQLite's text drops the zeros)
        return None if text is None else Decimal(text).quantize(HUNDREDTH)

    return {
        "date": date.fromisoformat(row["date"]),
        "source": source,
        "fog": inches(row["fog"]),
        "solids": inches(row["solids"]),
    }


HUNDREDTH = Decimal("0.01")


# what the timeline holds: (kind, model, date field, the path to the establishment)
TIMELINE = (
    ("Service", Service, "date", "device__establishment"),
    ("Inspection", Inspection, "date", "establishment"),
    ("Incident", Incident, "date", "establishment"),
    ("Permit", Permit, "issued_on", "establishment"),
    ("Training", Training, "date", "establishment"),
    ("Enforcement", EnforcementAction, "taken_on", "establishment"),
)


# what each kind of the timeline says of a record (a, b, c: its words, in SQL)
SAID = {
    "Service": {"a": "device__code", "b": "manifest_number", "c": "hauler__name"},
    "Inspection": {"a": "code"},
    "Incident": {"a": "kind", "b": "code"},
    "Permit": {"a": "number", "b": "holder"},
    "Training": {"a": "topic", "b": "trainer"},
    "Enforcement": {"a": "type", "b": "code", "c": "case__code"},
}


def timeline_page(fse, pack, *, upto: date | None = None, number=None, count=None) -> Page:
    """One page of the establishment's records of every kind, newest first: the kinds'
    records united, counted (unless `count` is known) and sliced in SQL, each with the words
    the page says of it and, for a pump-out, its marks, in one query."""
    open_dispute = ServiceDispute.objects.filter(service=OuterRef("pk"), withdrawn_on=None)
    parts = []
    for kind, model, day, path in TIMELINE:
        qs = model.objects.filter(**{path: fse})
        if upto is not None:
            qs = qs.filter(**{f"{day}__lte": upto})
        words = {k: Coalesce(F(v), Value("")) for k, v in SAID[kind].items()}
        service = kind == "Service"
        parts.append(
            qs.order_by()
            .annotate(
                day=F(day),
                record=Value(kind, output_field=CharField()),
                **{k: words.get(k, Value("", output_field=CharField())) for k in "abc"},
                origin=F("source") if service else Value("", output_field=CharField()),
                disputed_on=Subquery(open_dispute.values("raised_on")[:1])
                if service
                else Value(None, output_field=DateField()),
            )
            .values("day", "record", "pk", "a", "b", "c", "origin", "disputed_on")
        )
    united = parts[0].union(*parts[1:], all=True).order_by("-day", "record", "-pk")
    page = section(united, number) if count is None else counted_section(united, number, count)
    page.object_list = [
        {"date": row["day"], "kind": row["record"], **_said(row, pack)} for row in page.object_list
    ]
    return page


def _said(row: dict[str, Any], pack) -> dict[str, Any]:
    kind, a, b, c = row["record"], row["a"], row["b"], row["c"]
    if kind == "Service":
        service = Service(pk=row["pk"], manifest_number=b, source=row["origin"])
        service.disputed_on = row["disputed_on"]  # type: ignore[attr-defined]
        by = f" by {c}" if c else ""
        return {"text": f"{a} pumped out, manifest {b}{by}", "service": service}
    if kind == "Inspection":
        return {"text": f"Inspection {a}"}
    if kind == "Incident":
        return {"text": f"{a.capitalize()} {b}"}
    if kind == "Permit":
        return {"text": f"Permit {a} issued to {b}"}
    if kind == "Training":
        return {"text": a + (f", given by {b}" if b else "")}
    return {"text": f"{pack_title(pack, a)} ({b}, case {c})"}

"""Reads of the lists of inspections, pump-outs and trainings: each list's filtered queryset,
newest first, in one query whatever the agency's size, and the same rows as plain values for
an export (one query, read in chunks, so that memory does not grow with the rows)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from fogkeeper.inspections.models import ChecklistAnswer, Inspection
from fogkeeper.maintenance.models import SOURCES, Service, ServiceDispute
from fogkeeper.registry.models import Agency, Hauler
from fogkeeper.training.models import Attendance, Training

CHUNK = 2000  # rows fetched at a time by an export
RESULTS = [
    ("", "Any"),
    ("compliant", "Every item in compliance"),
    ("not_compliant", "An item out of compliance"),
]
SOURCE_WORDS = dict(SOURCES)


def _dated(qs: QuerySet, date_from: date | None, date_to: date | None) -> QuerySet:
    if date_from:
        qs = qs.filter(date__gte=date_from)
    if date_to:
        qs = qs.filter(date__lte=date_to)
    return qs


def _counted(model, link: str, **where) -> Coalesce:
    """How many rows of `model` belong to the listed row (`link` names it) and match `where`: a
    subquery per row shown, so that the list is walked in its order a page at a time and
    counted without them (a Count over a join groups every row of the agency first)."""
    counted = (
        model.objects.filter(**{link: OuterRef("pk")}, **where)
        .order_by()
        .values(link)
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def _establishment_search(qs: QuerySet, path: str, q: str, establishment: str = "") -> QuerySet:
    """Rows whose establishment's name, code or address contains `q`, of the establishment
    whose code is `establishment` where one is given (its page links its whole history here)."""
    if establishment:
        qs = qs.filter(**{f"{path}__code": establishment})
    if not (q := (q or "").strip()):
        return qs
    return qs.filter(
        Q(**{f"{path}__name__icontains": q})
        | Q(**{f"{path}__code__icontains": q})
        | Q(**{f"{path}__address__icontains": q})
    )


# -- inspections -----------------------------------------------------------------------------


def inspections(
    *,
    agency: Agency,
    date_from: date | None = None,
    date_to: date | None = None,
    q: str = "",
    establishment: str = "",
    inspector=None,
    result: str = "",
) -> QuerySet:
    """The agency's inspections, newest first, each with its establishment and inspector and
    the number of checklist items answered (`items`) and found out of compliance (`failed`)."""
    qs = Inspection.objects.filter(establishment__agency=agency)
    qs = _establishment_search(_dated(qs, date_from, date_to), "establishment", q, establishment)
    if inspector is not None:
        qs = qs.filter(inspector=inspector)
    failed = ChecklistAnswer.objects.filter(inspection=OuterRef("pk"), compliant=False)
    if result == "compliant":
        qs = qs.filter(~Exists(failed))
    elif result == "not_compliant":
        qs = qs.filter(Exists(failed))
    return (
        qs.select_related("establishment", "inspector")
        .annotate(
            items=_counted(ChecklistAnswer, "inspection"),
            failed=_counted(ChecklistAnswer, "inspection", compliant=False),
        )
        .order_by("-date", "-pk")
    )


def inspectors(*, agency: Agency) -> QuerySet:
    """The people who recorded an inspection of the agency (the list's inspector filter)."""
    done = Inspection.objects.filter(establishment__agency=agency, inspector__isnull=False)
    return get_user_model().objects.filter(pk__in=done.values("inspector")).order_by("username")


def result_words(items: int, failed: int) -> str:
    """What the checklist found, as stored: "2 of 9 items out of compliance"."""
    if not items:
        return "No checklist item answered"
    if not failed:
        return f"All {items} item{'s' if items != 1 else ''} in compliance"
    return f"{failed} of {items} item{'s' if items != 1 else ''} out of compliance"


def inspection_columns(pack) -> list[str]:
    inspector = pack.titles.get("inspector", "Inspector")
    return [
        "Date",
        "Inspection",
        "Establishment code",
        "Establishment",
        inspector,
        "Items answered",
        "Items out of compliance",
        "Result",
        "Notes",
    ]


def inspection_rows(qs: QuerySet) -> Iterator[list]:
    fields = (
        "date",
        "code",
        "establishment__code",
        "establishment__name",
        "inspector__username",
        "items",
        "failed",
        "notes",
    )
    for day, code, fse, name, who, items, failed, notes in qs.values_list(*fields).iterator(
        chunk_size=CHUNK
    ):
        yield [day, code, fse, name, who or "", items, failed, result_words(items, failed), notes]


# -- pump-outs -------------------------------------------------------------------------------


def services(
    *,
    agency: Agency,
    date_from: date | None = None,
    date_to: date | None = None,
    q: str = "",
    establishment: str = "",
    hauler: Hauler | None = None,
    device_kind: str = "",
) -> QuerySet:
    """The agency's pump-outs, newest first, each with its device, establishment and hauler,
    and whether a dispute of it is open (`disputed`: it does not count while open)."""
    qs = Service.objects.filter(device__establishment__agency=agency)
    qs = _dated(qs, date_from, date_to)
    qs = _establishment_search(qs, "device__establishment", q, establishment)
    if hauler is not None:
        qs = qs.filter(hauler=hauler)
    if device_kind:
        qs = qs.filter(device__kind=device_kind)
    open_dispute = ServiceDispute.objects.filter(service=OuterRef("pk"), withdrawn_on__isnull=True)
    return (
        qs.select_related("device__establishment", "hauler")
        .annotate(disputed=Exists(open_dispute))
        .order_by("-date", "-pk")
    )


def service_columns(pack) -> list[str]:
    return [
        "Date",
        "Manifest number",
        "Establishment code",
        "Establishment",
        "Device",
        "Device kind",
        "Hauler",
        "Full pump-out",
        "Gallons removed",
        "FOG (inches)",
        "Solids (inches)",
        "Recorded from",
        "Disputed",
    ]


def service_rows(qs: QuerySet, pack) -> Iterator[list]:
    fields = (
        "date",
        "manifest_number",
        "device__establishment__code",
        "device__establishment__name",
        "device__code",
        "device__kind",
        "hauler__name",
        "full_pump_out",
        "gallons_removed",
        "fog_inches",
        "solids_inches",
        "source",
        "disputed",
    )
    kinds: dict[str, str] = {}
    for row in qs.values_list(*fields).iterator(chunk_size=CHUNK):
        kind, source = row[5], row[11]
        if kind not in kinds:
            kinds[kind] = pack.kind_title(kind)
        yield [
            *row[:5],
            kinds[kind],
            row[6] or "",
            *row[7:11],
            SOURCE_WORDS.get(source, source),
            row[12],
        ]


# -- trainings -------------------------------------------------------------------------------


def trainings(
    *,
    agency: Agency,
    date_from: date | None = None,
    date_to: date | None = None,
    q: str = "",
    establishment: str = "",
) -> QuerySet:
    """The agency's trainings, newest first, each with its establishment and the number of
    employees who attended (`attendees`) and signed the log (`signed`)."""
    qs = Training.objects.filter(establishment__agency=agency)
    qs = _establishment_search(_dated(qs, date_from, date_to), "establishment", q, establishment)
    return (
        qs.select_related("establishment")
        .annotate(
            attendees=_counted(Attendance, "training"),
            signed=_counted(Attendance, "training", signed=True),
        )
        .order_by("-date", "-pk")
    )


def training_columns(pack) -> list[str]:
    return [
        "Date",
        "Training",
        "Establishment code",
        "Establishment",
        "Topic",
        "Trainer",
        "Attendees",
        "Signed the log",
    ]


def training_rows(qs: QuerySet) -> Iterator[list]:
    fields = (
        "date",
        "code",
        "establishment__code",
        "establishment__name",
        "topic",
        "trainer",
        "attendees",
        "signed",
    )
    for row in qs.values_list(*fields).iterator(chunk_size=CHUNK):
        yield list(row)

"""What the establishment page shows beyond selectors.establishment_page: the schedule in the
pack's words, each device's accumulation against the pack's limit, the inspections with
their photos, and the samples of the discharge against their limits."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.core.paginator import Page
from django.db.models import OuterRef
from django.db.models.functions import JSONObject

from fogkeeper.communications.selectors import sent_to
from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.compliance.reports import establishment_report
from fogkeeper.inspections.models import ChecklistAnswer, Inspection, InspectionPhoto, Sample
from fogkeeper.inspections.selectors import accumulation_limit, discharge_limits
from fogkeeper.rules.packs import Pack

from ..common.paging import section
from ..templatetags.words import pack_title
from ..vocabulary import reference_words
from .carried import JSONRows, instances, json_rows
from .selectors import EstablishmentPage
from .selectors import counted_section as counted


def obligation_title(pack: Pack, obligation: str) -> str:
    """The pack's title of an obligation of the schedule, else the obligation in words."""
    return pack_title(pack, obligation)


def schedule(pack: Pack, compliance: ComplianceStatus | None) -> list[dict[str, Any]]:
    """The engine's schedule of the last evaluation, each obligation with its pack title."""
    items = compliance.schedule if compliance is not None else []
    return [{**item, "title": obligation_title(pack, item["obligation"])} for item in items or []]


def accumulation(pack: Pack, device, readings: list[dict[str, Any]], as_of: date) -> dict | None:
    """FOG plus solids as a percentage of the device's design depth at each reading (oldest
    first), and the pack's limit in force on `as_of` where the limit applies to this kind of
    device. None without a design depth or a reading of both layers."""
    depth = device.design_depth_inches
    points = [
        {
            "date": r["date"].isoformat(),
            "source": r["source"],
            "percent": float(round(100 * (r["fog"] + r["solids"]) / depth, 1)),
        }
        for r in sorted(readings, key=lambda r: r["date"])
        if depth and r["fog"] is not None and r["solids"] is not None
    ]
    if not points:
        return None
    on = max(as_of, pack.effective)
    chart: dict[str, Any] = {
        "id": f"accumulation-{device.pk}",
        "device": device.code,
        "points": points,
        "limit": None,
        "citation": "",
    }
    limit = accumulation_limit(pack, device.kind, on)
    if limit is not None:
        chart["limit"] = float(Decimal(str(limit.value)) * 100)
        chart["citation"] = reference_words(pack, limit.reference)
    return chart


def inspections_with_photos(
    establishment, pack: Pack, as_of: date, number=None, counts: dict[str, int] | None = None
) -> Page:
    """A page of the establishment's inspections up to `as_of`, newest first, each with its
    photos (`photo_list`) and the checklist items it found out of compliance (`failed`: the
    pack's question, the inspector's note), read with it. `counts`
    (selectors.establishment_page's): the inspections already counted."""
    inspection = OuterRef("pk")
    photos = InspectionPhoto.objects.filter(inspection=inspection).order_by("pk")
    failed = ChecklistAnswer.objects.filter(inspection=inspection, compliant=False)
    failed_rows = failed.order_by("pk").values(
        row=JSONObject(item="item", note="note", device="device__code")
    )
    rows = (
        Inspection.objects.filter(establishment=establishment, date__lte=as_of)
        .select_related("inspector")
        .annotate(photo_rows=json_rows(photos), failed_rows=JSONRows(failed_rows))
        .order_by("-date", "-pk")
    )
    if counts is None:
        page = section(rows, number)
    else:
        page = counted(rows, number, counts["inspections_shown"])
    page.object_list = list(page.object_list)
    for i in page.object_list:
        i.photo_list = instances(InspectionPhoto, i.photo_rows)
        i.failed = [
            {
                "question": pack_title(pack, answer["item"]),
                "note": answer["note"],
                "device": answer["device"] or "",
            }
            for answer in i.failed_rows or []
        ]
    return page


def samples(
    establishment, pack: Pack, as_of: date, number=None, page_read: EstablishmentPage | None = None
) -> Page:
    """A page of the establishment's samples, newest first, each with the limit of its
    parameter on `as_of` (None where none applies) and whether it is over it (strictly,
    RULES.md 11.12); `over` is None where the sample is in another unit than the limit.
    `page_read`: the establishment's page, whose counts and permits are read already."""
    rows = []
    qs = Sample.objects.filter(establishment=establishment).select_related("device")
    qs = qs.order_by("-date", "-pk")
    if page_read is None:
        page = section(qs, number)
    else:
        page = counted(qs, number, page_read.counts["samples"])
    if not page.paginator.count:
        return page
    permits = page_read.permits if page_read is not None else None
    limits = discharge_limits(establishment, pack, as_of, permits)
    for sample in page.object_list:
        limit = limits.get(sample.parameter)
        over = None
        if limit is not None and limit["unit"] == sample.unit:
            over = sample.value > limit["max"]
        rows.append(
            {
                "sample": sample,
                "value": _plain(sample.value),
                "limit": limit,
                "max": _plain(limit["max"]) if limit else "",
                "over": over,
            }
        )
    page.object_list = rows
    return page


def _plain(number: Decimal) -> str:
    """100.000 -> "100", 150.500 -> "150.5"."""
    return f"{number.normalize():f}"


def money_standing(establishment, as_of: date, invoices: int | None = None) -> dict[str, Any]:
    """The delinquent invoices and the Town's business license block (10.02.360(B)), shown
    near the permit (web/billing/_licence_block.html); none asked for without an invoice
    (`invoices`, where counted already)."""
    from fogkeeper.billing.selectors import money_standing as standing
    from fogkeeper.billing.selectors import renewal_block

    late, block = standing(establishment, as_of) if invoices != 0 else ([], renewal_block([]))
    return {"delinquent": late, "licence_block": block}


@dataclass
class Evaluation:
    """What the engine says of the establishment on a day the page is shown as of, in the
    shape of the stored status the page reads (ComplianceStatus)."""

    status: str
    as_of: date
    status_citation: str | None
    schedule: list[dict[str, Any]]
    deadlines: list[dict[str, Any]]


def evaluated_on(page: EstablishmentPage, pack: Pack, as_of: date) -> EstablishmentPage:
    """The page as of `as_of` where that is not the day of its last evaluation: the status,
    the open findings, the schedule and the deadlines the engine gives that day, and only
    the records of the timeline up to it."""
    stored = page.compliance
    if stored is not None and stored.as_of == as_of:
        return page
    report = establishment_report(establishment=page.establishment, as_of=as_of)
    page.compliance = Evaluation(  # type: ignore[assignment]  # read as a ComplianceStatus
        status=report.status,
        as_of=as_of,
        status_citation=report.status_citation,
        schedule=[item.to_dict() for item in report.schedule],
        deadlines=[d.to_dict() for d in report.deadlines],
    )
    page.findings = [
        {"finding": f, "title": pack_title(pack, f.rule)} for f in report.findings if f.open
    ]
    return page


# the sections of the page shown a page at a time, each with its own `?<name>_page=`
SECTIONS = (
    "timeline",
    "inspections",
    "samples",
    "actions",
    "letters",
    "training_logs",
    "incidents",
    "communications",
)


def page_numbers(query, sections=SECTIONS) -> dict[str, str | None]:
    """The page asked for of each section, from the request's query."""
    return {name: query.get(f"{name}_page") for name in sections}


def section_queries(query, sections=SECTIONS) -> dict[str, str]:
    """For each section, the query of the page shown without that section's page number: its
    pages' links keep the day the page is shown as of and the other sections' pages."""
    out = {}
    for name in sections:
        kept = query.copy()
        kept.pop(f"{name}_page", None)
        out[name] = kept.urlencode()
    return out


def page_extras(
    *, page: EstablishmentPage, pack: Pack, as_of: date, pages: dict | None = None
) -> dict[str, Any]:
    """The page's sections beyond the selector's, each page of rows cut from the counts the
    selector read, and the short lists it read with the establishment."""
    pages = pages or {}
    fse, counts = page.establishment, page.counts
    devices = [
        {**row, "chart": accumulation(pack, row["device"], row["readings"], as_of)}
        for row in page.devices
    ]
    return {
        "schedule": schedule(pack, page.compliance),
        "devices": devices,
        "removed_devices": [row for row in devices if row["device"].removed_on],
        "charts": [row["chart"] for row in devices if row["chart"]],
        "inspections": inspections_with_photos(fse, pack, as_of, pages.get("inspections"), counts),
        "samples": samples(fse, pack, as_of, pages.get("samples"), page),
        "training_logs": counted(
            fse.trainings.exclude(log="").order_by("-date", "-pk"),
            pages.get("training_logs"),
            counts["training_logs"],
        ),
        "incidents": counted(
            fse.incidents.order_by("-date", "-pk"), pages.get("incidents"), counts["incidents"]
        ),
        "communications": counted(
            sent_to(fse), pages.get("communications"), counts["communications"]
        ),
        "counts": {"inspections": counts["inspections"], "trainings": counts["trainings"]},
        "tenure": page.tenure,
        **page.listed,
        **money_standing(fse, as_of, counts["invoices"]),
    }

"""The day's route, downloaded while online for the field app to work offline: the first page of
the field list's "today (and overdue)" section (selectors.field_list, riskiest first), each
establishment with its devices in service and the pack's accumulation limit for them, its open
findings, its last inspection's items found out of compliance, the inspection of the route's
day if it was inspected already (`done_today`: the app shows it done, not to be inspected
again), and what it is on record as now (`seen`, with its `version`: the conflict check of
inspections.offline); and the pack's checklist. A fixed number of queries whatever the
route's length."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import Prefetch, Q
from django.utils import timezone

from fogkeeper.compliance.models import Finding
from fogkeeper.inspections.models import ChecklistAnswer, Inspection
from fogkeeper.inspections.selectors import accumulation_limit
from fogkeeper.inspections.snapshots import establishment_seen, version_of
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, GreaseControlDevice
from fogkeeper.rules.packs import Pack

from ..common.pages import PAGE_SIZE
from ..templatetags.words import pack_title
from ..vocabulary import reference_words
from .selectors import field_counts, field_list
from .views import stops

ROUTE_STOPS = PAGE_SIZE  # the first page of today's list: what the field page shows first


def _plain(value) -> str | None:
    return None if value is None else str(value)


def _devices(fse: FoodServiceEstablishment, pack: Pack, as_of: date) -> list[dict[str, Any]]:
    out = []
    for d in sorted(fse.devices.all(), key=lambda d: d.code):
        if d.installed_on > as_of or (d.removed_on is not None and d.removed_on < as_of):
            continue
        limit = accumulation_limit(pack, d.kind, max(as_of, pack.effective))
        out.append(
            {
                "code": d.code,
                "kind": d.kind,
                "kind_title": pack.kind_title(d.kind),
                "location": d.location,
                "design_depth_inches": _plain(d.design_depth_inches),
                "limit": _plain(limit.value) if limit is not None else None,
                "limit_citation": reference_words(pack, limit.reference) if limit else "",
            }
        )
    return out


def _last_inspection(fse: FoodServiceEstablishment, pack: Pack) -> dict[str, Any] | None:
    last = fse.route_inspections[0] if fse.route_inspections else None  # type: ignore[attr-defined]  # prefetched
    if last is None:
        return None
    failed = [
        {
            "question": pack_title(pack, a.item),
            "citation": pack.checklist[a.item].citation if a.item in pack.checklist else "",
            "device": a.device.code if a.device else "",
            "note": a.note,
        }
        for a in last.answers.all()
        if not a.compliant
    ]
    return {"code": last.code, "date": last.date.isoformat(), "failed": failed}


def _done_today(fse: FoodServiceEstablishment, as_of: date) -> str | None:
    """The number of the inspection of `fse` on the route's day, if there is one: the stop is
    done (until the sweep moves its next inspection out of today's list)."""
    last = fse.route_inspections[0] if fse.route_inspections else None  # type: ignore[attr-defined]  # prefetched
    return last.code if last is not None and last.date == as_of else None


def _findings(fse: FoodServiceEstablishment, pack: Pack) -> list[dict[str, Any]]:
    return [
        {
            "title": pack_title(pack, f.rule),
            "citation": f.citation,
            "since": f.since.isoformat(),
            "subject": f.subject,
        }
        for f in fse.route_findings  # type: ignore[attr-defined]  # prefetched
    ]


def _establishments(ranked, as_of: date):
    """The establishments of `ranked` (a queryset of the field list) with what the route
    shows of each, fetched in a fixed number of queries."""
    inspections = Inspection.objects.filter(date__lte=as_of).order_by("-date", "-pk")
    return ranked.defer(None).prefetch_related(
        "tenures__operator",
        Prefetch("devices", queryset=GreaseControlDevice.objects.order_by("code")),
        Prefetch(
            "findings",
            queryset=Finding.objects.filter(Q(open=True)).order_by("since", "rule"),
            to_attr="route_findings",
        ),
        Prefetch("inspections", queryset=inspections, to_attr="route_inspections"),
        Prefetch(
            "route_inspections__answers",
            queryset=ChecklistAnswer.objects.select_related("device"),
        ),
    )


def route(*, agency: Agency, as_of: date, user) -> dict[str, Any]:
    """The route of `agency`'s inspector on `as_of`, as the field app stores it."""
    pack = agency.get_pack()
    today, _ = field_list(agency=agency, as_of=as_of)
    due, _ = field_counts(agency=agency, as_of=as_of)
    fses = list(_establishments(today, as_of)[:ROUTE_STOPS])
    places = []
    for stop, fse in zip(stops(fses, as_of), fses, strict=True):
        seen = establishment_seen(fse)
        tenures = [t for t in fse.tenures.all() if t.until is None]
        places.append(
            {
                "code": fse.code,
                "name": fse.name,
                "address": fse.address,
                "city": fse.city,
                "operator": tenures[0].operator.name if tenures else "",
                "due": stop.due.isoformat(),
                "obligation": pack_title(pack, stop.obligation) if stop.obligation else "",
                "citation": stop.citation,
                "version": version_of(seen),
                "seen": seen,
                "devices": _devices(fse, pack, as_of),
                "findings": _findings(fse, pack),
                "last_inspection": _last_inspection(fse, pack),
                "done_today": _done_today(fse, as_of),
            }
        )
    return {
        "agency": {"code": agency.code, "name": agency.name},
        "user": user.get_username(),
        "as_of": as_of.isoformat(),
        "downloaded_at": timezone.now().isoformat(timespec="seconds"),
        "due": due,
        "checklist": [
            {"item": c.item, "question": c.question, "citation": c.citation}
            for c in pack.checklist.values()
        ],
        "establishments": places,
    }

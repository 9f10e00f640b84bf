"""Reads of requests: an establishment's, one of an agency's (404 for another agency's), the
open ones due in a span of days (the calendar) and a year's (the annual report), each with
the words and citation its pack gives its kind."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from fogkeeper.rules.requests import RequestKind

from .kinds import request_kind, request_kinds
from .models import Filing


@dataclass(frozen=True)
class FilingView:
    filing: Filing
    kind: RequestKind | None
    about: str
    review_until: date | None = None  # 13.30.090(E): the petition's time, extended

    @property
    def title(self) -> str:
        return self.kind.title if self.kind else self.filing.kind

    @property
    def citation(self) -> str:
        return self.kind.citation if self.kind else ""


def _about(f: Filing) -> str:
    if f.device is not None:
        return f"{f.device.code}: {f.device.kind_title()}"
    if f.hearing is not None:
        return f"the hearing {f.hearing.code} of {f.hearing.taken_on:%Y-%m-%d}"
    if f.permit is not None:
        return f"{f.permit.number}"
    return ""


def _review_until(f: Filing, kind: RequestKind | None) -> date | None:
    if kind is None or kind.review_extension is None or f.outcome != "delivered":
        return None
    assert f.decided_on is not None
    return f.decided_on + timedelta(days=kind.review_extension.until)


def view(f: Filing) -> FilingView:
    kind = request_kind(f.establishment.agency.get_pack(), f.kind)
    return FilingView(f, kind, _about(f), _review_until(f, kind))


def _related(qs: QuerySet[Filing]) -> QuerySet[Filing]:
    return qs.select_related(
        "establishment__agency", "device", "hearing", "permit", "permit_modification"
    )


def establishment_filings(*, establishment: FoodServiceEstablishment) -> list[FilingView]:
    """The establishment's requests, newest first, with their answers."""
    return [view(f) for f in _related(Filing.objects.filter(establishment=establishment))]


def agency_filing(*, agency: Agency, pk: int) -> Filing:
    """One request of `agency`'s establishments; another agency's is not found (404)."""
    return get_object_or_404(_related(Filing.objects.all()), pk=pk, establishment__agency=agency)


def open_due(*, agency: Agency, start: date, end: date) -> QuerySet[Filing]:
    """The requests not yet answered whose answer or delivery falls due in [start, end]."""
    qs = Filing.objects.filter(
        establishment__agency=agency, outcome="", due_on__gte=start, due_on__lte=end
    )
    return _related(qs).order_by("due_on", "pk")


@dataclass(frozen=True)
class YearRow:
    title: str
    citation: str
    filed: int
    outcomes: dict[str, int]
    open: int
    late: int  # answered or delivered after its due day, or still open past it


def year_summary(*, agency: Agency, year: int, as_of: date) -> list[YearRow]:
    """Each request kind of the pack: how many were filed in `year`, how they were answered,
    how many are open and how many missed the day the ordinance sets."""
    kinds = request_kinds(agency.get_pack())
    filings = Filing.objects.filter(establishment__agency=agency, filed_on__year=year)
    rows = []
    for key, kind in kinds.items():
        mine = [f for f in filings if f.kind == key]
        outcomes = Counter(f.get_outcome_display() for f in mine if f.outcome)
        late = sum(1 for f in mine if f.due_on and (f.decided_on or as_of) > f.due_on)
        rows.append(
            YearRow(
                kind.title,
                kind.citation,
                len(mine),
                dict(outcomes),
                sum(1 for f in mine if not f.outcome),
                late,
            )
        )
    return rows

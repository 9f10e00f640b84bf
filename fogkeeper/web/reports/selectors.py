"""Reads of the reports pages, each in a fixed number of queries whatever the agency's size.

The dashboard's figures as of a day, from the stored findings and schedule (violations by
rule, permits to renew, inspections due, the week's calendar, recent overflows, spill
reports due, overdue cleanings, the compliance rate month by month).

The agency-wide lists: the findings the sweep stored, the invoices with what is owed on them,
and the enforcement actions taken. Each is one queryset, newest first, that the page
paginates and the export iterates (`.iterator()`), so that neither runs a query per row;
`*_rows` map a queryset to the exported cells, in the pack's words."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import (
    Case,
    CharField,
    DecimalField,
    Exists,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from fogkeeper.billing.models import Invoice, InvoiceAdjustment, InvoiceLine, Payment
from fogkeeper.billing.selectors import DELINQUENT, invoice_due_on
from fogkeeper.compliance.dashboard import figures, rate_points, stored_figures
from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.rates import month_end
from fogkeeper.enforcement.models import EnforcementAction
from fogkeeper.formats import cents
from fogkeeper.incidents.models import Incident
from fogkeeper.registry.models import Agency, FoodServiceEstablishment
from fogkeeper.rules.packs import Pack

from ..enforcement.cases import action_title
from ..templatetags.words import identifier_words, pack_title

RECENT_OVERFLOW_DAYS = 30  # the dashboard's recent overflows


@dataclass(frozen=True)
class PumpOutHistory:
    """The day the agency's pump-out records start, and the devices in place before it with
    no full pump-out on record yet: not overdue until `grace_ends` (the first morning after
    a program was onboarded without its history)."""

    starts: date
    grace_ends: date
    waiting: int
    in_grace: bool


def pump_out_history(*, agency: Agency, as_of: date) -> PumpOutHistory | None:
    if agency.history_starts is None:
        return None
    from fogkeeper.maintenance.models import Service
    from fogkeeper.registry.models import GreaseControlDevice

    served = Service.objects.filter(device=OuterRef("pk"), full_pump_out=True, date__lte=as_of)
    waiting = (
        GreaseControlDevice.objects.filter(
            establishment__agency=agency,
            installed_on__lt=agency.history_starts,
            installed_on__lte=as_of,
            establishment__opened_on__lte=as_of,
        )
        .exclude(removed_on__lte=as_of)
        .exclude(establishment__closed_on__lte=as_of)
        .exclude(Exists(served))
        .count()
    )
    ends = agency.history_grace_ends
    assert ends is not None  # the history starts (above), so its grace ends
    return PumpOutHistory(agency.history_starts, ends, waiting, as_of <= ends)


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
    spill_reports: list = field(default_factory=list)  # incidents.spills.SpillReport
    cleanings_overdue: list = field(default_factory=list)  # sewers.selectors.SegmentState
    cleaning_citation: str = ""
    history: PumpOutHistory | None = None
    reports_to_state: bool = True  # the agency's pack names a State pack (spill reports owed)

    @property
    def spill_reports_late(self) -> int:
        return sum(r.deadline.late for r in self.spill_reports)


def dashboard(*, agency: Agency, as_of: date, stored: bool = True) -> Dashboard:
    """The dashboard on `as_of`: its counts over the agency as the sweep stored them for that
    day when `stored` (the page knows whether they may be: dashboard.py) and it did, else
    counted now; the rest read as it is."""
    from fogkeeper.incidents.reporting_pack import of_agency
    from fogkeeper.incidents.spills import reports_due
    from fogkeeper.sewers.selectors import cleaning_citation, cleanings_overdue

    found = stored_figures(agency=agency, as_of=as_of) if stored else None
    if found is None:
        found = figures(agency=agency, as_of=as_of)
    pack = agency.get_pack()
    by_rule = found.violations
    overflow_since = as_of - timedelta(days=RECENT_OVERFLOW_DAYS)
    state = of_agency(agency)
    return Dashboard(
        as_of=as_of,
        overdue_pump_outs=by_rule.get("gcd.service_overdue", 0),
        violations_by_rule=[
            {"rule": rule, "title": pack_title(pack, rule), "count": n}
            for rule, n in sorted(by_rule.items())
        ],
        permits_expired=by_rule.get("permit.expired", 0),
        permits_to_renew=found.permits_to_renew,
        renew_by=found.renew_by,
        inspections_due=found.inspections_due,
        inspections_this_week=found.inspections_this_week,
        month_start=as_of.replace(day=1),
        month_end=month_end(as_of),
        calendar=_with_codes(agency, found.calendar),
        overflows=list(
            Incident.objects.filter(agency=agency, date__gte=overflow_since, date__lte=as_of)
            .select_related("establishment")
            .order_by("-date", "code")
        ),
        overflow_since=overflow_since,
        compliance_rate=rate_points(found.rates),
        spill_reports=reports_due(
            agency=agency, as_of=as_of, start=as_of, end=as_of + timedelta(days=7), pack=state
        )
        if state is not None
        else [],
        cleanings_overdue=cleanings_overdue(agency=agency, as_of=as_of),
        history=pump_out_history(agency=agency, as_of=as_of),
        cleaning_citation=cleaning_citation(agency),
        reports_to_state=state is not None,
    )


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


# -- the agency-wide lists ------------------------------------------------------------------

FINDING_STATES = {"open": "Open", "closed": "Closed", "all": "Open and closed"}
INVOICE_STATES = {
    "due": "Due",
    "part_paid": "Part paid",
    "paid": "Paid",
    "delinquent": "Delinquent",
    "void": "Void",
}
ZERO = Decimal("0.00")


def _establishment_search(q: str, prefix: str = "establishment__") -> Q:
    return (
        Q(**{f"{prefix}name__icontains": q})
        | Q(**{f"{prefix}code__icontains": q})
        | Q(**{f"{prefix}address__icontains": q})
    )


def _between(qs: QuerySet, field: str, start: date | None, end: date | None) -> QuerySet:
    if start is not None:
        qs = qs.filter(**{f"{field}__gte": start})
    if end is not None:
        qs = qs.filter(**{f"{field}__lte": end})
    return qs


# -- findings ---------------------------------------------------------------------------------


def findings(
    *, agency: Agency, state: str = "open", rule: str = "", severity: str = "", q: str = ""
) -> QuerySet:
    """The agency's findings as the sweep stored them: open ones (the default), closed ones
    or all; of one rule, one severity, and establishments matching `q`; newest first."""
    qs = Finding.objects.filter(agency=agency).select_related("establishment")
    if state in ("", "open"):
        qs = qs.filter(open=True)
    elif state == "closed":
        qs = qs.filter(open=False)
    if rule:
        qs = qs.filter(rule=rule)
    if severity:
        qs = qs.filter(severity=severity)
    if q := q.strip():
        qs = qs.filter(_establishment_search(q))
    return qs.order_by("-since", "-pk")


FINDING_COLUMNS = [
    "Establishment code",
    "Establishment",
    "Finding",
    "Severity",
    "Since",
    "Due",
    "Closed on",
    "Citation",
    "What was found",
]


def finding_rows(qs: QuerySet, pack: Pack) -> Iterator[list]:
    for f in qs.iterator(chunk_size=2000):
        yield [
            f.establishment.code,
            f.establishment.name,
            pack_title(pack, f.rule),
            identifier_words(f.severity),
            f.since,
            f.due,
            f.closed_on,
            f.citation,
            f.message,
        ]


# -- invoices ---------------------------------------------------------------------------------


def _sum(model, field: str = "amount", **where) -> Coalesce:
    rows = (
        model.objects.filter(invoice=OuterRef("pk"), **where)
        .values("invoice")
        .annotate(t=Sum(field))
        .values("t")
    )
    money = DecimalField(max_digits=12, decimal_places=2)
    return Coalesce(Subquery(rows, output_field=money), Value(ZERO), output_field=money)


def invoices(
    *,
    agency: Agency,
    state: str = "",
    issued_from: date | None = None,
    issued_to: date | None = None,
    q: str = "",
) -> QuerySet:
    """The agency's invoices, newest notice first, each with its `amount`, what was `paid`,
    what voids and credits took off (`adjusted`), the `balance` and its `state`: void, paid
    (nothing owed), delinquent (the engine's `fees.delinquent` finding, open at the last
    sweep: `late_since`, `late_citation`), part paid, or due."""
    late = Finding.objects.filter(
        establishment=OuterRef("establishment"),
        rule=DELINQUENT,
        subject=OuterRef("code"),
        open=True,
    ).order_by("-since")
    qs = (
        Invoice.objects.filter(agency=agency)
        .select_related("establishment", "agency")
        .annotate(
            amount=_sum(InvoiceLine),
            paid=_sum(Payment),
            adjusted=_sum(InvoiceAdjustment),
            voided=Exists(InvoiceAdjustment.objects.filter(invoice=OuterRef("pk"), kind="void")),
            late_since=Subquery(late.values("since")[:1]),
            late_citation=Subquery(late.values("citation")[:1]),
        )
        .annotate(balance=F("amount") - F("paid") - F("adjusted"))
        .annotate(
            state=Case(
                When(voided=True, then=Value("void")),
                When(balance__lte=0, then=Value("paid")),
                When(late_since__isnull=False, then=Value("delinquent")),
                When(Q(paid__gt=0) | Q(adjusted__gt=0), then=Value("part_paid")),
                default=Value("due"),
                output_field=CharField(),
            )
        )
    )
    if state:
        qs = qs.filter(state=state)
    qs = _between(qs, "noticed_on", issued_from, issued_to)
    if q := q.strip():
        qs = qs.filter(_establishment_search(q) | Q(code__iexact=q))
    return qs.order_by("-noticed_on", "-code")


def with_due(invoices_) -> list:
    """The invoices (a page), each with the last day to pay as the engine computes it
    (`due_on`: None where the ordinance sets no payment deadline) and its state in words."""
    out = list(invoices_)
    for invoice in out:
        invoice.due_on = invoice_due_on(invoice)
        invoice.state_word = INVOICE_STATES[invoice.state]
    return out


INVOICE_COLUMNS = [
    "Invoice",
    "Establishment code",
    "Establishment",
    "Kind",
    "Issued",
    "Due",
    "Amount",
    "Paid",
    "Credited or voided",
    "Balance",
    "State",
    "Delinquent since",
]


def invoice_rows(qs: QuerySet) -> Iterator[list]:
    for i in qs.iterator(chunk_size=2000):
        yield [
            i.code,
            i.establishment.code,
            i.establishment.name,
            i.get_kind_display(),
            i.noticed_on,
            invoice_due_on(i),
            *map(cents, (i.amount, i.paid, i.adjusted, i.balance)),
            INVOICE_STATES[i.state],
            i.late_since,
        ]


# -- enforcement actions ----------------------------------------------------------------------


def actions(
    *,
    agency: Agency,
    type: str = "",
    taken_from: date | None = None,
    taken_to: date | None = None,
    q: str = "",
) -> QuerySet:
    """The agency's enforcement actions, newest first, of one type, taken between two days,
    of establishments matching `q`."""
    qs = EnforcementAction.objects.filter(establishment__agency=agency).select_related(
        "establishment", "case"
    )
    if type:
        qs = qs.filter(type=type)
    qs = _between(qs, "taken_on", taken_from, taken_to)
    if q := q.strip():
        qs = qs.filter(_establishment_search(q) | Q(code__iexact=q) | Q(case__code__iexact=q))
    return qs.order_by("-taken_on", "-pk")


def action_types(*, agency: Agency) -> list[tuple[str, str]]:
    """The types of action to filter by, in the pack's words: the pack's, and any other taken
    (hearings, appeals…), by title."""
    pack = agency.get_pack()
    taken = EnforcementAction.objects.filter(establishment__agency=agency).values_list(
        "type", flat=True
    )
    types = {*pack.actions, *taken.distinct().order_by()}
    return sorted(((t, action_title(pack, t)) for t in types), key=lambda pair: pair[1])


ACTION_COLUMNS = [
    "Action",
    "Type",
    "Establishment code",
    "Establishment",
    "Case",
    "Taken on",
    "Citation",
]


def action_rows(qs: QuerySet, pack: Pack) -> Iterator[list]:
    for a in qs.iterator(chunk_size=2000):
        yield [
            a.code,
            action_title(pack, a.type),
            a.establishment.code,
            a.establishment.name,
            a.case.code,
            a.taken_on,
            a.cites,
        ]
